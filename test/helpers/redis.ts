import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A free loopback port, by asking the kernel for one. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `child`'s output has matched `pattern`; rejects if it exits first or after `timeoutMs`. */
export function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`no ${pattern} within ${timeoutMs} ms: ${seen.slice(-2000)}`)),
      timeoutMs,
    );
    const onData = (d: Buffer) => {
      seen += d.toString();
      if (pattern.test(seen)) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before ${pattern}: ${seen.slice(-2000)}`));
    });
  });
}

export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/**
 * A private redis-server (Debian's) on a loopback port, persisting to `dir` with an
 * append-only file, so a restart keeps the queue as a production one would.
 */
export class RedisServer {
  private child?: ChildProcess;
  constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async start(dir: string): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), dir);
    await server.start();
    return server;
  }

  /** The server's process id while it runs (benches read its CPU). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--appendonly',
        'yes',
        '--save',
        '',
        '--protected-mode',
        'yes',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    await waitForOutput(child, /Ready to accept connections/, 15_000);
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child) return;
    child.kill('SIGTERM');
    await exited(child);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }
}
