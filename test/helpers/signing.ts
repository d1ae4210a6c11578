/**
 * Independent validators for signed PDFs: poppler's pdfsig, MuPDF's `mutool sign -v`, and
 * `openssl cms -verify` on signatures this helper extracts itself (not through src/signing).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';

const run = promisify(execFile);

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function tool(cmd: string, args: string[], options: { cwd?: string } = {}): Promise<RunResult> {
  try {
    const { stdout, stderr } = await run(cmd, args, { maxBuffer: 64 * 1024 * 1024, timeout: 60_000, ...options });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

export async function tempDir(prefix = 'castpress-signing-'): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A small PDF made here with pdf-lib: `pages` pages of text. */
export async function makePdf(pages = 1, text = 'castpress signing test'): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++)
    doc.addPage([595, 842]).drawText(`${text} - page ${i + 1}`, { x: 72, y: 770, size: 14, font });
  return doc.save({ useObjectStreams: false });
}

export interface PdfsigSignature {
  text: string;
  valid: boolean;
  total: boolean;
  digestMismatch: boolean;
  trusted: boolean;
}

/** pdfsig's report, one entry per signature (its exit code is 0 even on a digest mismatch). */
export async function pdfsig(file: string, nssdir?: string): Promise<{ text: string; signatures: PdfsigSignature[] }> {
  const r = await tool('pdfsig', [...(nssdir ? ['-nssdir', `sql:${nssdir}`] : []), file]);
  const text = r.stdout + r.stderr;
  const signatures = text
    .split(/^Signature #\d+:$/m)
    .slice(1)
    .map((block) => ({
      text: block,
      valid: block.includes('Signature Validation: Signature is Valid.'),
      total: block.includes('- Total document signed'),
      digestMismatch: block.includes('Digest Mismatch'),
      trusted: block.includes('Certificate Validation: Certificate is Trusted.'),
    }));
  return { text, signatures };
}

/** `mutool sign -v`: one verdict line per signature. */
export async function mutoolVerify(file: string): Promise<string> {
  const r = await tool('mutool', ['sign', '-v', file]);
  return r.stdout + r.stderr;
}

export interface ExtractedSignature {
  byteRange: [number, number, number, number];
  der: Buffer;
  signedBytes: Buffer;
}

/** Every signature dictionary's /ByteRange, the bytes it covers and its /Contents (DER, padding trimmed). */
export function extractSignatures(bytes: Uint8Array): ExtractedSignature[] {
  const file = Buffer.from(bytes);
  const latin = file.toString('latin1');
  const out: ExtractedSignature[] = [];
  for (const m of latin.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)) {
    const br = m.slice(1, 5).map(Number) as [number, number, number, number];
    const contents = latin.slice(br[0] + br[1], br[2]);
    if (!/^<[0-9A-Fa-f\s]*>$/.test(contents)) continue;
    let der = Buffer.from(contents.slice(1, -1).replace(/\s+/g, ''), 'hex');
    // DER length from the outer SEQUENCE header; the rest is zero padding.
    if (der[0] === 0x30 && der[1]! & 0x80) {
      const n = der[1]! & 0x7f;
      let len = 0;
      for (let i = 0; i < n; i++) len = len * 256 + der[2 + i]!;
      der = der.subarray(0, 2 + n + len);
    } else if (der[0] === 0x30) {
      der = der.subarray(0, 2 + der[1]!);
    }
    out.push({
      byteRange: br,
      der,
      signedBytes: Buffer.concat([file.subarray(br[0], br[0] + br[1]), file.subarray(br[2], br[2] + br[3])]),
    });
  }
  return out;
}

/** `openssl cms -verify` of one extracted signature against `caFile`. Exit 0: valid; 4: signature failure. */
export async function opensslCmsVerify(
  sig: ExtractedSignature,
  caFile: string,
  dir: string,
  name = 'sig',
): Promise<RunResult> {
  const sigFile = path.join(dir, `${name}.der`);
  const content = path.join(dir, `${name}-ranges.bin`);
  await writeFile(sigFile, sig.der);
  await writeFile(content, sig.signedBytes);
  return tool('openssl', [
    'cms',
    '-verify',
    '-binary',
    '-inform',
    'DER',
    '-in',
    sigFile,
    '-content',
    content,
    '-CAfile',
    caFile,
    '-purpose',
    'any',
    '-out',
    '/dev/null',
  ]);
}

/** An NSS database trusting `rootPem` (for `pdfsig -nssdir`). */
export async function nssDbTrusting(dir: string, rootPem: string): Promise<string> {
  const db = path.join(dir, 'nssdb');
  await tool('mkdir', ['-p', db]);
  const init = await tool('certutil', ['-N', '-d', `sql:${db}`, '--empty-password']);
  if (init.code !== 0) throw new Error(`certutil -N failed: ${init.stderr}`);
  const add = await tool('certutil', [
    '-A',
    '-d',
    `sql:${db}`,
    '-n',
    'castpress-test-root',
    '-t',
    'CT,C,C',
    '-i',
    rootPem,
  ]);
  if (add.code !== 0) throw new Error(`certutil -A failed: ${add.stderr}`);
  return db;
}

/** A self-signed certificate and key made by openssl in `dir` with the given extensions, and its PKCS#12 (passphrase "x"). */
export async function selfSigned(
  dir: string,
  name: string,
  extensions: string[],
  days = 3650,
): Promise<{ key: string; cert: string; p12: string }> {
  const key = path.join(dir, `${name}.key`);
  const cert = path.join(dir, `${name}.crt`);
  const p12 = path.join(dir, `${name}.p12`);
  const run = async (args: string[]) => {
    const r = await tool('openssl', args, { cwd: dir });
    if (r.code !== 0) throw new Error(`openssl ${args.join(' ')}: ${r.stderr}`);
  };
  await run([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    String(days),
    '-subj',
    `/CN=${name}/O=Example`,
    ...extensions.flatMap((e) => ['-addext', e]),
  ]);
  await run(['pkcs12', '-export', '-inkey', key, '-in', cert, '-passout', 'pass:x', '-out', p12]);
  return { key, cert, p12 };
}

/**
 * A signature made without sealPdf's checks, the way another tool would write it: @libpdf/core's
 * own `sign()` (its CMS carries a signing-time attribute) with the PKCS#12 `p12` (passphrase "x").
 */
export async function signedByLibpdf(input: Uint8Array, p12: string, signingTime: Date): Promise<Uint8Array> {
  const { P12Signer, PDF } = await import('@libpdf/core');
  const signer = await P12Signer.create(new Uint8Array(await readFile(p12)), 'x');
  const pdf = await PDF.load(input);
  const { bytes } = await pdf.sign({
    signer,
    fieldName: 'Signature',
    subFilter: 'ETSI.CAdES.detached',
    level: 'B-B',
    digestAlgorithm: 'SHA-256',
    signingTime,
    estimatedSize: 12_000,
  });
  return bytes;
}
