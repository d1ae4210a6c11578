/**
 * The dashboard's page and files: one HTML shell for every client route (the browser app draws
 * the page), its script and stylesheet, and pdf.js from the installed `pdfjs-dist`. The shell
 * runs under a strict CSP: scripts only from this server (no inline script, no eval), styles
 * only from this server, and frames only of the editor page by the organization's own origins.
 * Only a fixed table of files is reachable; no part of a request path reaches the file system.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { NotFoundError } from '../errors/index.js';

export const ASSETS = '/dashboard/assets';

/** The browser app's files: the bundle the build writes (outside src) and the stylesheet beside the app's sources. */
export interface AppFiles {
  /** Default `<package>/generated/dashboard.js`. */
  script?: string;
  /** Default `<package>/src/dashboard/app/app.css`. */
  stylesheet?: string;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** Two folders up from src/dashboard/ and dist/dashboard/ alike: the package root. */
const fromPackage = (relative: string) => fileURLToPath(new URL(`../../${relative}`, import.meta.url));

/** pdf.js's two modules and the data folders its viewer options point at (fonts, CMaps, wasm decoders, ICC profiles). */
function pdfjsFiles(): Map<string, string> {
  const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const table = new Map<string, string>([
    ['pdf.mjs', path.join(root, 'build', 'pdf.min.mjs')],
    ['pdf.worker.mjs', path.join(root, 'build', 'pdf.worker.min.mjs')],
  ]);
  for (const dir of ['standard_fonts', 'cmaps', 'wasm', 'iccs']) {
    let names: string[] = [];
    try {
      names = readdirSync(path.join(root, dir));
    } catch {
      continue;
    }
    for (const name of names) if (!name.startsWith('LICENSE')) table.set(`${dir}/${name}`, path.join(root, dir, name));
  }
  return table;
}

const SHELL = (nonce: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>castpress dashboard</title>
<link rel="stylesheet" href="${ASSETS}/app.css">
<script src="${ASSETS}/app.js" defer nonce="${nonce}"></script>
</head>
<body>
<div id="app"></div>
</body>
</html>
`;

/** The shell's CSP: `frameAncestors` are the page's (`'self'` and, on the editor, the organization's origins). */
export function shellPolicy(nonce: string, frameAncestors: readonly string[]): string {
  return [
    "default-src 'none'",
    // 'wasm-unsafe-eval': pdf.js decodes JPEG 2000 and JBIG2 with WebAssembly; no JavaScript eval.
    `script-src 'self' 'nonce-${nonce}' 'wasm-unsafe-eval'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${frameAncestors.join(' ')}`,
  ].join('; ');
}

export function sendShell(reply: FastifyReply, frameAncestors: readonly string[]): FastifyReply {
  const nonce = randomBytes(16).toString('base64');
  return reply
    .type('text/html; charset=utf-8')
    .header('content-security-policy', shellPolicy(nonce, frameAncestors))
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .send(SHELL(nonce));
}

export function assetRoutes(app: FastifyInstance, files: AppFiles = {}): void {
  const own = new Map<string, string>([
    ['app.js', files.script ?? fromPackage('generated/dashboard.js')],
    ['app.css', files.stylesheet ?? fromPackage('src/dashboard/app/app.css')],
  ]);
  let pdfjs: Map<string, string> | undefined;
  app.get<{ Params: { '*': string } }>(`${ASSETS}/*`, async (request, reply) => {
    const name = request.params['*'];
    pdfjs ??= pdfjsFiles();
    const file = own.get(name) ?? pdfjs.get(name);
    let body: Buffer | undefined;
    try {
      body = file ? await readFile(file) : undefined;
    } catch (e) {
      // The app's bundle is made by the build: a checkout that has not built it answers 404, not 500.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    if (!file || !body) throw new NotFoundError(`No dashboard asset "${name}"`, 'path');
    return (
      reply
        .type(TYPES[path.extname(file)] ?? 'application/octet-stream')
        // The app's own files change with each build: revalidated. pdf.js changes only with the installed package.
        .header('cache-control', own.has(name) ? 'no-cache' : 'public, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        .header('cross-origin-resource-policy', 'same-origin')
        .send(body)
    );
  });
}
