/**
 * `castpress serve` as a user runs it: the package's bin in a child process; the URL it
 * announces on stderr once listening.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'castpress.js');

export interface ServeProcess {
  child: ChildProcess;
  /** The base URL once listening; rejects when the process exits first. */
  url: Promise<string>;
  exited: Promise<number | null>;
  stderr: () => string;
  /** What it wrote to stdout so far: the request and server log (pino JSON lines). */
  stdout: () => string;
}

export function startServe(args: string[]): ServeProcess {
  const child = spawn(process.execPath, [bin, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  // Read, so a chatty log level never fills the pipe and stalls the server.
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  // 'close', not 'exit': it comes after the pipes have delivered their last bytes, so what the process
  // wrote to stderr before it exited is there when a test reads it.
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (m) resolve(m[1]!);
    });
    void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  return { child, url, exited, stderr: () => stderr, stdout: () => stdout };
}

/** Ends the server as an operator does (SIGTERM: a graceful shutdown) and waits for it to exit. */
export async function stopServe(s: ServeProcess): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  s.child.kill('SIGTERM');
  await s.exited;
}
