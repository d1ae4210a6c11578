/**
 * The HTML test documents (test/fixtures/html) served as if they were a web site, for the corpus test
 * and the WeasyPrint pixel report (scripts/weasyprint-compare.ts): both must render them the same way.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResourceResolver } from '../../src/resources/index.js';

export const HTML_FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'html');
export const FIXTURE_ORIGIN = 'https://corpus.test/';
const TYPES: Record<string, string> = {
  css: 'text/css',
  ttf: 'font/ttf',
  // The spec uses a font only when its response says font/ttf (or application/x-font-ttf): the site serves its
  // OpenType files so, as a site whose fonts the hosted service should use must.
  otf: 'font/ttf',
  png: 'image/png',
  svg: 'image/svg+xml',
  jpg: 'image/jpeg',
};

/** Serves the fixture folder at FIXTURE_ORIGIN; anything else is refused. */
export const fixtureResolver: ResourceResolver = async (url) => {
  if (!url.startsWith(FIXTURE_ORIGIN)) return null;
  const file = path.join(HTML_FIXTURES, decodeURIComponent(new URL(url).pathname));
  if (!file.startsWith(HTML_FIXTURES + path.sep)) return null;
  try {
    return { body: new Uint8Array(await readFile(file)), contentType: TYPES[path.extname(file).slice(1)] };
  } catch {
    return null;
  }
};

/** WeasyPrint's default page size, the one its reference renderings of the samples use. */
export const A4 = { width: '210mm', height: '297mm' };
/** WeasyPrint's default page: A4 with its user-agent sheet's `@page { margin: 75px }` (the samples that set no margin use it). */
export const WEASYPRINT_PAGE = { ...A4, margin: '75px' };
