/**
 * The CommonMark spec examples (npm commonmark-spec, CC-BY-SA-4.0 text) as a
 * suite for "every construct renders its visible text": each example becomes a
 * `content` block, and the text read back from the PDF must equal, in order,
 * the text a browser shows for the reference HTML. Whitespace is ignored on
 * both sides (line wrapping and pdfjs item joins do not change what is read).
 */
import { createRequire } from 'node:module';
import { afterAll, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { pageText } from './helpers/pdf.js';

interface Example {
  markdown: string;
  html: string;
  section: string;
  number: number;
}

const require = createRequire(import.meta.url);
const { tests } = require('commonmark-spec') as { tests: Example[] };

const engine = createEngine({ now: () => new Date('2026-01-01T00:00:00Z') });
afterAll(() => engine.close());

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', nbsp: '\u00a0' };

/**
 * What a browser shows for the reference HTML: text nodes, entities decoded,
 * plus what it draws for `<img alt>` when the image cannot load (no image loads
 * here: the spec's URLs are relative) and the numbers of ordered list items.
 */
export function visibleText(html: string): string {
  let out = '';
  const lists: Array<number | null> = [];
  // Attribute values may hold '>' (quoted); `<!-->` and `<!--->` are complete comments since spec 0.31.
  const tag =
    /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|<!---?>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<![A-Z][^>]*>|<!\[CDATA\[[\s\S]*?\]\]>/g;
  let last = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    out += html.slice(last, m.index);
    last = tag.lastIndex;
    const [, close, rawName, attrs = ''] = m;
    const name = (rawName ?? '').toLowerCase();
    if (!rawName) continue;
    if (name === 'img') out += /alt="([^"]*)"/.exec(attrs)?.[1] ?? '';
    else if (name === 'ol' && !close) lists.push(Number(/start="(\d+)"/.exec(attrs)?.[1] ?? 1));
    else if (name === 'ul' && !close) lists.push(null);
    else if ((name === 'ol' || name === 'ul') && close) lists.pop();
    else if (name === 'li' && !close) {
      const n = lists[lists.length - 1];
      if (typeof n === 'number') {
        out += `${n}.`;
        lists[lists.length - 1] = n + 1;
      }
    }
  }
  out += html.slice(last);
  return out.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (e, n: string) => {
    if (n[0] !== '#') return NAMED[n.toLowerCase()] ?? e;
    return String.fromCodePoint(n[1] === 'x' || n[1] === 'X' ? parseInt(n.slice(2), 16) : parseInt(n.slice(1), 10));
  });
}

const squeeze = (s: string) => s.replace(/\s+/g, '');
const marker = (n: number) => `QQ${n}QQ`;

it('renders the visible text of at least 98% of the CommonMark spec examples', async () => {
  const examples = tests.map((t) => ({
    ...t,
    markdown: t.markdown.replace(/→/g, '\t'),
    html: t.html.replace(/→/g, '\t'),
  }));
  const got = new Map<number, string>();
  const chunk = 120;
  const chunks = [];
  for (let i = 0; i < examples.length; i += chunk) chunks.push(examples.slice(i, i + chunk));
  await Promise.all(
    chunks.map(async (group) => {
      const data = group.flatMap((ex) => [{ label: marker(ex.number) }, { content: ex.markdown }]);
      const pdf = await engine.generate({
        logo: false,
        includeTimestamp: false,
        data: [...data, { label: marker(0) }],
      });
      const text = (await pageText(pdf)).join('\n');
      const parts = text.split(/QQ(\d+)QQ/);
      for (let k = 1; k < parts.length; k += 2) got.set(Number(parts[k]), parts[k + 1] ?? '');
    }),
  );

  const failures: string[] = [];
  for (const ex of examples) {
    const expected = squeeze(visibleText(ex.html));
    const actual = squeeze(got.get(ex.number) ?? '<missing>');
    if (expected !== actual)
      failures.push(
        `#${ex.number} (${ex.section}): expected ${JSON.stringify(expected)} got ${JSON.stringify(actual)}`,
      );
  }
  const passed = examples.length - failures.length;
  const rate = (100 * passed) / examples.length;
  console.log(`CommonMark visible text: ${passed}/${examples.length} examples pass (${rate.toFixed(1)}%)`);
  if (failures.length > 0) console.log(failures.join('\n'));
  expect(examples.length).toBe(652);
  expect(rate).toBeGreaterThanOrEqual(98);
});
