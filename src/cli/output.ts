import { writeSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isCastpressError } from '../errors/index.js';

/**
 * A line on stderr, written to the descriptor itself. process.stderr is a stream that loads Node's
 * net and stream modules when first read (a socket on a pipe, a tty stream on a terminal): 2 % of a
 * cold `castpress fill`, whose one line of output is `wrote …` (bench/results/HISTORY.md). Node
 * writes stderr synchronously on pipes, files and terminals anyway, so lines keep their order with
 * console.error's. Should the descriptor refuse (EAGAIN on a full non-blocking pipe, EPIPE when it is
 * closed), the rest goes through console.error, which waits for the pipe and ignores a closed one.
 */
export function stderrLine(text: string): void {
  const bytes = Buffer.from(`${text}\n`);
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(2, bytes, written);
  } catch {
    console.error(bytes.subarray(written, bytes.length - 1).toString());
  }
}

/** Writes the PDF to `-o FILE`, or to stdout when it is not a terminal. */
export async function writePdf(pdf: Uint8Array, output: string | undefined): Promise<number> {
  if (output && output !== '-') {
    // A missing output folder is created rather than reported.
    await mkdir(path.dirname(path.resolve(output)), { recursive: true });
    await writeFile(output, pdf);
    stderrLine(`wrote ${output} (${(pdf.byteLength / 1024).toFixed(0)} KB)`);
    return 0;
  }
  if (process.stdout.isTTY) {
    console.error('refusing to write a PDF to a terminal: pass -o FILE');
    return 1;
  }
  process.stdout.write(pdf);
  return 0;
}

/** Typed errors print as the API's JSON body (so scripts can parse them); exit code 2. */
export function reportError(e: unknown): number {
  if (isCastpressError(e)) {
    console.error(JSON.stringify({ status: e.status, ...e.toJSON() }, null, 2));
    return 2;
  }
  throw e;
}

/**
 * Usage asked for (`-h`) goes to stdout with exit 0; usage shown because the
 * arguments are wrong goes to stderr with exit 2, so `> out.pdf` never receives it,
 * after the line that says what is wrong (`castpress fill: missing DATA.json`).
 */
export function printUsage(usage: string, asked: boolean, problem?: string): number {
  if (asked) {
    console.log(usage);
    return 0;
  }
  console.error(problem ? `${problem}\n\n${usage}` : usage);
  return 2;
}

/**
 * What is wrong with a command's arguments, or undefined: the first missing one by its usage name
 * (`castpress fill: missing DATA.json`), an argument too many, or a missing required flag.
 */
export function argumentProblem(
  command: string,
  names: readonly string[],
  positionals: readonly string[],
  requiredFlags: Readonly<Record<string, unknown>> = {},
): string | undefined {
  if (positionals.length < names.length)
    return `castpress ${command}: missing ${names.slice(positionals.length).join(' and ')}`;
  if (positionals.length > names.length)
    return `castpress ${command}: unexpected argument "${positionals[names.length]}" (it takes ${names.length === 0 ? 'none' : names.join(' ')})`;
  const missing = Object.entries(requiredFlags).find(([, v]) => v === undefined || v === '');
  return missing ? `castpress ${command}: missing ${missing[0]}` : undefined;
}
