/**
 * The HTML fixtures the html benches render (test/fixtures/html), and a resolver that serves them under
 * one made-up origin, as a remote site would: WeasyPrint's samples load their stylesheets, fonts and
 * images through it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResourceResolver } from '../src/resources/index.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../test/fixtures/html');

/** The origin `corpusResolver` answers for: `${CORPUS_ORIGIN}weasyprint-report/report.html`. */
export const CORPUS_ORIGIN = 'https://corpus.test/';

/** A fixture's text, by its path under test/fixtures/html. */
export function readFixture(file: string): string {
  return readFileSync(path.join(fixtures, file), 'utf8');
}

/** Any URL's path read from test/fixtures/html. */
export const corpusResolver: ResourceResolver = async (url) => {
  const file = path.join(fixtures, new URL(url).pathname);
  return {
    body: new Uint8Array(readFileSync(file)),
    contentType: file.endsWith('.css') ? 'text/css' : file.endsWith('.ttf') ? 'font/ttf' : 'image/svg+xml',
  };
};
