/**
 * DOCX → PDF through LibreOffice headless. Each conversion runs in a fresh
 * temporary directory holding its input, its output and its own LibreOffice
 * profile (`-env:UserInstallation`): two conversions never share a profile, so
 * they may run at once, and a crashed one leaves nothing behind for the next.
 * The process runs in its own process group; at the deadline the whole group
 * (soffice.bin and its helpers) is killed.
 *
 * A DOCX can ask its reader to fetch (linked images, templates, OLE links, field codes):
 * LibreOffice gets a copy with those removed (docx-sanitize.ts), runs without a network
 * (bubblewrap, docx-sandbox.ts) and under a memory limit.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConversionError } from '../request/errors.js';
import { sandboxCommand, type DocxSandbox } from './sandbox.js';
import { sanitizeDocx } from './sanitize.js';
import type { ZipLimits } from './zip.js';

const INSTALL_HINT = 'install the Debian package libreoffice-writer-nogui (scripts/setup.sh does)';
const SANDBOX_HINT =
  "install the Debian package bubblewrap (scripts/setup.sh does), or set the converter's sandbox option to 'none' to convert with network access";
/** Address space for one conversion: LibreOffice maps ~400 MB of libraries before reading a byte, a large document takes ~1 GB. */
const DEFAULT_MEMORY_MB = 2048;

export interface DocxConvertOptions {
  /** The LibreOffice executable; default: `soffice`, then `libreoffice`, on PATH. */
  soffice?: string;
  /** Deadline for one conversion; default 60 s (a cold start with a fresh profile takes 1–3 s). */
  timeoutMs?: number;
  /** The upload's property path, named in errors. */
  property?: string;
  /** Aborting kills the conversion's process group (503). */
  signal?: AbortSignal;
  /**
   * How LibreOffice is kept off the network. `bwrap` (default): inside bubblewrap with no
   * network; when bubblewrap is missing or cannot make its namespaces, conversions fail
   * with a 503 rather than run unconfined. `none`: no sandbox, an explicit choice for hosts
   * that cannot run bubblewrap: only the sanitizer then stands between a DOCX and the network.
   */
  sandbox?: DocxSandbox;
  /** The bubblewrap executable; default `bwrap` on PATH. */
  bwrap?: string;
  /** Address-space limit of the conversion (RLIMIT_AS) in MiB; default 2048; 0 for none. */
  memoryLimitMb?: number;
  /** Bounds on the DOCX zip (entries, inflated bytes) read by the sanitizer. */
  zip?: ZipLimits;
  /** Set to false only by tests that show the sandbox holds on its own: the DOCX is converted as uploaded. */
  sanitize?: boolean;
}

export type UploadKind = 'pdf' | 'docx' | 'unknown';

/** What an upload is, by its bytes: a PDF header near the start, or a zip holding `word/`. */
export function sniffUpload(bytes: Uint8Array): UploadKind {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024));
  if (head.includes('%PDF-')) return 'pdf';
  const all = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (all.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) && all.includes('word/')) return 'docx';
  return 'unknown';
}

async function findOnPath(names: string[]): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (await executable(candidate)) return candidate;
    }
  }
  return undefined;
}

function missing(property: string, detail: string): ConversionError {
  return new ConversionError(`Cannot convert DOCX to PDF: LibreOffice ${detail}; ${INSTALL_HINT}`, 503, property);
}

/** Keeps the last few KB of a stream for error messages. */
function tail(chunks: Buffer[], max = 2048): string {
  return Buffer.concat(chunks).toString('utf8').slice(-max).trim();
}

export async function convertDocxToPdf(docx: Uint8Array, options: DocxConvertOptions = {}): Promise<Uint8Array> {
  const property = options.property ?? 'file';
  const timeoutMs = options.timeoutMs ?? 60_000;
  const soffice = options.soffice ?? (await findOnPath(['soffice', 'libreoffice']));
  if (!soffice) throw missing(property, 'was not found on PATH');
  if (!(await executable(soffice))) throw missing(property, `cannot be started (${soffice} is not an executable file)`);
  const sandbox = options.sandbox ?? 'bwrap';
  const bwrap = sandbox === 'bwrap' ? (options.bwrap ?? (await findOnPath(['bwrap']))) : undefined;
  if (sandbox === 'bwrap' && (bwrap === undefined || !(await executable(bwrap)))) {
    throw new ConversionError(
      `Cannot convert DOCX to PDF: LibreOffice runs without a network inside bubblewrap, which was not found; ${SANDBOX_HINT}`,
      503,
      property,
    );
  }
  // What LibreOffice reads is the copy the sanitizer wrote, never the upload's own zip.
  const sanitized = options.sanitize === false ? docx : (await sanitizeDocx(docx, { ...options.zip, property })).docx;
  const dir = await mkdtemp(path.join(tmpdir(), 'castpress-docx-'));
  try {
    const input = path.join(dir, 'input.docx');
    const outDir = path.join(dir, 'out');
    const profile = path.join(dir, 'profile');
    await mkdir(outDir);
    await writeFile(input, sanitized);
    const args = [
      `-env:UserInstallation=${pathToFileURL(profile).href}`,
      '--headless',
      '--invisible',
      '--norestore',
      '--nolockcheck',
      '--nodefault',
      '--nologo',
      '--convert-to',
      'pdf:writer_pdf_Export',
      '--outdir',
      outDir,
      input,
    ];
    const memoryLimitMb = options.memoryLimitMb ?? DEFAULT_MEMORY_MB;
    const command = sandboxCommand(sandbox, {
      soffice,
      args,
      workDir: dir,
      memoryLimitMb,
      ...(bwrap === undefined ? {} : { bwrap }),
    });
    await run(command.file, command.args, {
      cwd: dir,
      timeoutMs,
      property,
      env: command.env,
      signal: options.signal,
      memoryLimitMb,
    });
    try {
      return new Uint8Array(await readFile(path.join(outDir, 'input.pdf')));
    } catch {
      throw new ConversionError(
        `LibreOffice could not convert the file to PDF (is it a valid DOCX${memoryNote(memoryLimitMb)}?)`,
        422,
        property,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function executable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A conversion that fails under a memory limit may have run out of it: LibreOffice cannot say which. */
const memoryNote = (mb: number) =>
  mb > 0 ? `, or did it need more than the conversion's memory limit of ${mb} MiB` : '';

function run(
  cmd: string,
  args: string[],
  o: {
    cwd: string;
    timeoutMs: number;
    property: string;
    env: NodeJS.ProcessEnv;
    signal?: AbortSignal;
    memoryLimitMb: number;
  },
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (o.signal?.aborted) {
      reject(new ConversionError('DOCX conversion cancelled: the converter was closed', 503, o.property));
      return;
    }
    const out: Buffer[] = [];
    let settled = false;
    const child = spawn(cmd, args, {
      cwd: o.cwd,
      // Its own process group, so the deadline can end soffice.bin and everything it started.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      // A private HOME too (sandboxCommand): LibreOffice otherwise touches ~/.config even with a custom profile.
      env: o.env,
    });
    const keep = (b: Buffer) => {
      out.push(b);
      if (out.length > 64) out.shift();
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      killGroup();
      reject(new ConversionError(`DOCX conversion did not finish within ${o.timeoutMs} ms`, 503, o.property));
    }, o.timeoutMs);
    const onAbort = () => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      killGroup();
      reject(new ConversionError('DOCX conversion cancelled: the converter was closed', 503, o.property));
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('exit', () => o.signal?.removeEventListener('abort', onAbort));
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      reject(
        e.code === 'ENOENT' || e.code === 'EACCES'
          ? missing(o.property, `cannot be started (${cmd}: ${e.code})`)
          : new ConversionError(`DOCX conversion failed: ${e.message}`, 500, o.property, { cause: e }),
      );
    });
    // 'exit', not 'close': a helper that inherited the pipes would keep them open until the deadline.
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      // Helpers LibreOffice left running in the group would hold the profile: end them too.
      killGroup();
      if (settled) return;
      settled = true;
      const said = tail(out);
      const sandboxFailed = code !== 0 && /^bwrap: /m.exec(said);
      if (code === 0) resolve();
      // bubblewrap could not make its namespaces (no user namespaces, a seccomp filter...): the host's problem, not the file's.
      else if (sandboxFailed)
        reject(
          new ConversionError(
            `Cannot convert DOCX to PDF: the network sandbox could not start (${said.slice(sandboxFailed.index).split('\n')[0]}); ${SANDBOX_HINT}`,
            503,
            o.property,
          ),
        );
      else
        reject(
          new ConversionError(
            `LibreOffice exited with ${signal ?? `code ${code}`} (is it a valid DOCX${memoryNote(o.memoryLimitMb)}?): ${said || 'no output'}`,
            422,
            o.property,
          ),
        );
    });
  });
}

export interface DocxConverterOptions extends Omit<DocxConvertOptions, 'property' | 'signal'> {
  /** Conversions running at once; more wait their turn. Default 2 (each LibreOffice takes a core and ~200 MB). */
  maxConcurrent?: number;
}

/**
 * Conversions with a bound on how many LibreOffice processes run at once. Create one per
 * engine or server and close it when done: closing fails queued conversions and kills running ones.
 */
export class DocxConverter {
  readonly #options: DocxConverterOptions;
  readonly #max: number;
  readonly #closing = new AbortController();
  #running = 0;
  /** Each waiter is woken with true when a finishing conversion hands it its slot, false when closed. */
  readonly #waiting: Array<(gotSlot: boolean) => void> = [];

  constructor(options: DocxConverterOptions = {}) {
    this.#options = options;
    this.#max = Math.max(1, Math.floor(options.maxConcurrent ?? 2));
  }

  async convert(docx: Uint8Array, property = 'file'): Promise<Uint8Array> {
    await this.#acquire(property);
    try {
      return await convertDocxToPdf(docx, { ...this.#options, property, signal: this.#closing.signal });
    } finally {
      this.#release();
    }
  }

  /** Conversions running and waiting. */
  get load(): { running: number; waiting: number } {
    return { running: this.#running, waiting: this.#waiting.length };
  }

  close(): void {
    this.#closing.abort();
    for (const wake of this.#waiting.splice(0)) wake(false);
  }

  async #acquire(property: string): Promise<void> {
    const closed = () => new ConversionError('DOCX conversion cancelled: the converter was closed', 503, property);
    if (this.#closing.signal.aborted) throw closed();
    if (this.#running < this.#max) {
      this.#running++;
      return;
    }
    // The slot is handed over by #release without being given back in between, so a call
    // arriving meanwhile cannot take it.
    if (!(await new Promise<boolean>((resolve) => this.#waiting.push(resolve)))) throw closed();
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next(true);
    else this.#running--;
  }
}
