/**
 * A private PostgreSQL server (Debian's `postgresql`, installed by setup) on a loopback
 * port, its cluster in a temporary folder, stopped and removed after the tests. As root
 * (CI), initdb and the server run as the `postgres` user, since PostgreSQL refuses root.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { exited, freePort, waitForOutput } from './redis.js';

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(path.join(root, v, 'bin', 'initdb'))) return path.join(root, v, 'bin');
  throw new Error('PostgreSQL is not installed: run scripts/setup.sh (Debian package postgresql)');
}

export class PostgresServer {
  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly child: ChildProcess,
  ) {}

  get connectionString(): string {
    return `postgres://castpress@127.0.0.1:${this.port}/postgres`;
  }

  static async start(): Promise<PostgresServer> {
    const bin = binDir();
    const dir = mkdtempSync('/tmp/castpress-pg-');
    const asRoot = userInfo().uid === 0;
    const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
    // The processes themselves run as postgres (no wrapper in between, so signals reach the server).
    const user = asRoot ? { uid: id('-u'), gid: id('-g') } : {};
    if (asRoot) {
      chownSync(dir, user.uid!, user.gid!);
      chmodSync(dir, 0o700);
    }
    const data = path.join(dir, 'data');
    const init = spawnSync(
      path.join(bin, 'initdb'),
      ['-D', data, '-A', 'trust', '-U', 'castpress', '--no-sync', '-E', 'UTF8', '--locale=C'],
      { encoding: 'utf8', cwd: dir, ...user },
    );
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
    const port = await freePort();
    const args = [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'max_connections=50',
    ];
    const child = spawn(path.join(bin, 'postgres'), args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir, ...user });
    await waitForOutput(child, /ready to accept connections/, 60_000);
    return new PostgresServer(port, dir, child);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      // SIGINT: fast shutdown (clients disconnected, no wait for them).
      this.child.kill('SIGINT');
      await exited(this.child);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
