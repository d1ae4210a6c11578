/**
 * One process for a guide's ts blocks (test/docs.test.ts): guide-block-runner.mjs runs
 * each block where its own process would have run it (its folder as the working directory, the
 * same environment) and says when it ended as that process would have: done with nothing left
 * running, or failed with why. The package is imported once per runner instead of once per block
 * (test/docs.test.ts keeps one runner for all the guides, and starts another if a block ended it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNNER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'guide-block-runner.mjs');
const MARK = '\u0000castpress-block-end';

export class GuideRunner {
  readonly #process: ChildProcess;
  #stdout = '';
  #stderr = '';
  #exit: Promise<string>;

  /** Starts the runner in `cwd` (the installed project, so `castpress` resolves as a user's import does). */
  constructor(cwd: string, env: NodeJS.ProcessEnv) {
    this.#process = spawn(process.execPath, [RUNNER], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.#process.stdout!.on('data', (d: Buffer) => (this.#stdout += d.toString()));
    this.#process.stderr!.on('data', (d: Buffer) => (this.#stderr = (this.#stderr + d.toString()).slice(-20_000)));
    this.#exit = new Promise((resolve) =>
      this.#process.once('close', (code, signal) => resolve(`the runner ended (${signal ?? code})`)),
    );
  }

  /**
   * Runs one block (an .mjs file) in `cwd`; resolves with what it printed once it has ended, rejects
   * with its error (and the runner's stderr) if it failed or did not end within `timeoutMs`.
   */
  async run(file: string, cwd: string, timeoutMs: number): Promise<{ stdout: string }> {
    const from = this.#stdout.length;
    this.#process.stdin!.write(`${JSON.stringify({ file, cwd })}\n`);
    let timer: NodeJS.Timeout | undefined;
    const ended = new Promise<{ stdout: string; ok: boolean; error?: string }>((resolve, reject) => {
      const look = (): void => {
        const at = this.#stdout.indexOf(`\n${MARK} `, from);
        const end = at < 0 ? -1 : this.#stdout.indexOf('\n', at + 1);
        if (end < 0) return;
        this.#process.stdout!.off('data', look);
        const result = JSON.parse(this.#stdout.slice(at + MARK.length + 2, end)) as { ok: boolean; error?: string };
        resolve({ stdout: this.#stdout.slice(from, at), ...result });
      };
      this.#process.stdout!.on('data', look);
      look();
      void this.#exit.then((why) => reject(new Error(`${why}\n${this.#stderr}`)));
      timer = setTimeout(() => reject(new Error(`no end within ${timeoutMs} ms\n${this.#stderr}`)), timeoutMs);
    });
    try {
      const result = await ended;
      if (!result.ok) throw new Error(`${result.error ?? 'failed'}\n${this.#stderr}`);
      return { stdout: result.stdout };
    } finally {
      clearTimeout(timer);
    }
  }

  /** False once the runner has ended (a block's uncaught error ends it, as it ended the block's own process). */
  get running(): boolean {
    return this.#process.exitCode === null && this.#process.signalCode === null;
  }

  /** Ends the runner (it exits once stdin closes), or kills it if it is stuck. */
  async close(): Promise<void> {
    if (this.#process.exitCode !== null || this.#process.signalCode !== null) return;
    this.#process.stdin!.end();
    const killer = setTimeout(() => this.#process.kill('SIGKILL'), 10_000);
    await this.#exit;
    clearTimeout(killer);
  }
}
