/**
 * Word-by-word comparison of a rendered page with a reference rendering (WeasyPrint's samples): shared by
 * test/html-corpus.test.ts and the WeasyPrint report (scripts/weasyprint-compare.ts), so both print the same number.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HTML_FIXTURES } from './html-fixtures.js';

/** Words of a page as poppler reads them (ligatures spelled out; form-field dot rows, WeasyPrint's, left out). */
export function pageWords(text: string): string[] {
  return text
    .replace(/\ufb01/g, 'fi')
    .replace(/\ufb02/g, 'fl')
    .split(/\s+/)
    .filter((w) => w && !/^\.+$/.test(w));
}

/**
 * 2·LCS / (|a| + |b|) over the two word sequences: 1 when both pages have the same words in the same order.
 * A word in another place counts as missing from one page and extra on the other.
 */
export function orderedSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length + b.length === 0) return 1;
  let prev = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const cur = [0];
    b.forEach((y, j) => cur.push(x === y ? prev[j]! + 1 : Math.max(prev[j + 1]!, cur[j]!)));
    prev = cur;
  }
  return (2 * prev[b.length]!) / (a.length + b.length);
}

/**
 * The same words regardless of order (multiset Dice: 2·common / (|a| + |b|)). Weaker than `orderedSimilarity`:
 * it hides words that moved (Chromium paints margin boxes before the page's content).
 */
export function unorderedSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length + b.length === 0) return 1;
  const count = new Map<string, number>();
  for (const w of a) count.set(w, (count.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of b) {
    const n = count.get(w) ?? 0;
    if (n > 0) {
      common++;
      count.set(w, n - 1);
    }
  }
  return (2 * common) / (a.length + b.length);
}

/**
 * Per sample document (`weasyprint-invoice/invoice.html`…), per page, the words poppler (`pdftotext -raw`)
 * reads from WeasyPrint's own PDF of it (test/fixtures/html/weasyprint-reference-words.json), as `pageWords` splits them.
 */
export function weasyprintReferenceWords(): Record<string, string[][]> {
  const raw = JSON.parse(readFileSync(path.join(HTML_FIXTURES, 'weasyprint-reference-words.json'), 'utf8')) as Record<
    string,
    string[][]
  >;
  return Object.fromEntries(Object.entries(raw).map(([doc, pages]) => [doc, pages.map((p) => pageWords(p.join(' ')))]));
}
