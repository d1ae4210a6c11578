/**
 * pdf.js for the signing page, served by this server from the installed `pdfjs-dist`
 * (no CDN: the page makes no third-party request), and the page's own fonts from the
 * bundled fonts/ (the same text on every machine; a typed mark previewed in the face
 * the PDF gets). Only a fixed set of files is
 * reachable: the two modules by name, and the files listed at start-up in pdf.js's
 * data folders (standard fonts, CMaps, wasm decoders, ICC profiles). No path from
 * the request ever reaches the file system unchecked.
 */
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../errors/index.js';
import { bundledFontsDir } from '../../fonts/index.js';

/** Where the page loads them from (the client script names these). */
export const ASSET_BASE = '/sign/assets';

/** The page's faces (OFL, bundled): text, and the handwriting face of typed marks. */
const PAGE_FONTS = ['NotoSans-Regular.ttf', 'NotoSans-Bold.ttf', 'DancingScript-Regular.otf'] as const;

const DATA_DIRS = ['standard_fonts', 'cmaps', 'wasm', 'iccs'] as const;

const TYPES: Record<string, string> = {
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
};

function pdfjsRoot(): string {
  return path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
}

/** URL path (under ASSET_BASE) → file, made once. */
function assetTable(): Map<string, string> {
  const root = pdfjsRoot();
  const table = new Map<string, string>([
    ['pdf.mjs', path.join(root, 'build', 'pdf.min.mjs')],
    ['pdf.worker.mjs', path.join(root, 'build', 'pdf.worker.min.mjs')],
  ]);
  for (const name of PAGE_FONTS) table.set(`fonts/${name}`, path.join(bundledFontsDir(), name));
  for (const dir of DATA_DIRS) {
    let names: string[] = [];
    try {
      names = readdirSync(path.join(root, dir));
    } catch {
      continue; // an older pdfjs-dist without this folder: pdf.js copes without it
    }
    for (const name of names) if (!name.startsWith('LICENSE')) table.set(`${dir}/${name}`, path.join(root, dir, name));
  }
  return table;
}

export function signingAssetRoutes(app: FastifyInstance): void {
  let table: Map<string, string> | undefined;
  app.get<{ Params: { '*': string } }>(`${ASSET_BASE}/*`, async (request, reply) => {
    table ??= assetTable();
    const file = table.get(request.params['*']);
    if (!file) throw new NotFoundError(`No signing-page asset "${request.params['*']}"`, 'path');
    const body = await readFile(file);
    return (
      reply
        .type(TYPES[path.extname(file)] ?? 'application/octet-stream')
        // The files change only with the installed pdfjs-dist (a restart); a day of caching is safe.
        .header('cache-control', 'public, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        .header('cross-origin-resource-policy', 'same-origin')
        .send(body)
    );
  });
}
