/**
 * `hyphens: auto` with a language hyphenates (Chromium on Debian has no dictionaries: castpress
 * hyphenates with TeX patterns and writes soft hyphens), honours `hyphenate-limit-chars`, and leaves
 * no soft hyphen in the text a reader extracts or in bookmarks.
 */
import { PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { execFile } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { hyphenateGroups, patternsFor } from '../src/html/hyphenation.js';
import { dropSoftHyphenSpans } from '../src/pdf/index.js';
import { popplerText, qpdfCheck, readOutline, withTempFile } from './helpers/pdf.js';

const engine = createEngine();

function run(cmd: string, args: string[]): Promise<{ stdout: Buffer }> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { encoding: 'buffer', maxBuffer: 1 << 26 }, (err, stdout) =>
      err && !stdout?.length ? reject(err) : resolve({ stdout }),
    );
  });
}
afterAll(() => engine.close());

const PARA =
  'Hyphenation characteristically improves typographical justification of extraordinarily narrow newspaper columns considerably.';
const BREAK = '\u2010';

async function lines(html: string, css = ''): Promise<string[]> {
  const pdf = await engine.generate({ type: 'html', data: { html, css } });
  await qpdfCheck(pdf);
  const [text] = await popplerText(pdf);
  return text!.split('\n').filter((l) => l.trim());
}
const column = (lang: string | null, hyphens: string, text = PARA, extra = '') =>
  `<p${lang ? ` lang="${lang}"` : ''} style="width: 120px; font-size: 14px; text-align: justify; hyphens: ${hyphens}; ${extra}">${text}</p>`;
/** The lines' text with the breaks taken out: the words as written. */
const joined = (ls: string[]) =>
  ls
    .map((l) => l.trim())
    .join('\n')
    .replace(new RegExp(`[${BREAK}-]\\n`, 'g'), '')
    .replace(/\s+/g, ' ');

describe('hyphens: auto', () => {
  it('breaks English words at their syllables, in fewer lines than without, and extracts as written', async () => {
    const auto = await lines(column('en', 'auto'));
    const manual = await lines(column('en', 'manual'));
    expect(auto.filter((l) => l.trimEnd().endsWith(BREAK)).length).toBeGreaterThanOrEqual(2);
    expect(auto.length).toBeLessThan(manual.length);
    expect(auto.join('')).not.toContain('\u00ad');
    expect(joined(auto)).toBe(PARA);
    // Every break is at a syllable the patterns give: typo-graphical, justifica-tion and the like.
    for (const l of auto.filter((x) => x.trimEnd().endsWith(BREAK))) {
      const head = l.trim().split(/\s+/).at(-1)!.slice(0, -1);
      expect(PARA).toContain(head);
    }
  }, 60_000);

  it('hyphenates German, French and Spanish long words with their own patterns', async () => {
    for (const [lang, word] of [
      ['de', 'Donaudampfschifffahrtsgesellschaftskapitän'],
      ['fr', 'anticonstitutionnellement'],
      ['es', 'electroencefalografista'],
    ] as const) {
      const ls = await lines(column(lang, 'auto', word, 'width: 90px'));
      expect(ls.length, `${lang}: ${ls.join(' | ')}`).toBeGreaterThan(1);
      expect(ls.slice(0, -1).every((l) => l.trimEnd().endsWith(BREAK))).toBe(true);
      expect(joined(ls)).toBe(word);
    }
  }, 60_000);

  it('no language, or one without patterns, is not hyphenated (as in Chromium)', async () => {
    const manual = await lines(column('en', 'manual'));
    expect(await lines(column(null, 'auto'))).toEqual(manual);
    expect(await lines(column('xx-unknown', 'auto'))).toEqual(manual);
  }, 60_000);

  it('honours hyphenate-limit-chars: a longer shortest word hyphenates nothing; before/after are kept', async () => {
    const manual = await lines(column('en', 'manual'));
    expect(await lines(column('en', 'auto', PARA, 'hyphenate-limit-chars: 30'))).toEqual(manual);
    const [g] = hyphenateGroups([{ lang: 'en', word: 5, before: 2, after: 2, words: ['characteristically'] }]);
    const [strict] = hyphenateGroups([{ lang: 'en', word: 5, before: 6, after: 5, words: ['characteristically'] }]);
    const pieces = (h: string | undefined) => (h ?? '').split('\u00ad');
    expect(pieces(g!.characteristically)).toEqual(['char', 'ac', 'ter', 'is', 'ti', 'cal', 'ly']);
    const s = pieces(strict!.characteristically);
    expect(s[0]!.length).toBeGreaterThanOrEqual(6);
    expect(s.at(-1)!.length).toBeGreaterThanOrEqual(5);
    expect(s.join('')).toBe('characteristically');
  }, 60_000);

  it('a language tag names only a pattern table entry, never a module path', () => {
    expect(patternsFor('de-AT')).toBe('de-1996');
    expect(patternsFor('en-GB')).toBe('en-gb');
    expect(patternsFor('../../etc/passwd')).toBeUndefined();
    expect(patternsFor('__proto__')).toBeUndefined();
    expect(hyphenateGroups([{ lang: 'constructor', word: 1, before: 1, after: 1, words: ['word'] }])).toEqual([{}]);
  });

  it('bookmarks of hyphenated headings carry no soft hyphen', async () => {
    const pdf = await engine.generate({
      type: 'html',
      data: {
        html: '<html lang="en"><h1 style="width: 80px">Internationalization</h1><p>x</p></html>',
        css: 'body { hyphens: auto }',
      },
    });
    const [text] = await popplerText(pdf);
    expect(text).toContain(BREAK);
    expect((await readOutline(pdf)).map((n) => n.title)).toEqual(['Internationalization']);
  }, 60_000);
});

describe('dropSoftHyphenSpans', () => {
  /** A one-page PDF whose content is `content`, as written. */
  async function withContent(content: string): Promise<Uint8Array> {
    const doc = await PDFDocument.create();
    const page = doc.addPage([200, 200]);
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(content)));
    return doc.save({ useObjectStreams: false });
  }
  /** The page's content as qpdf decodes it (the last revision's). */
  async function pageContentText(pdf: Uint8Array): Promise<string> {
    const { stdout } = await withTempFile(pdf, (file) => run('qpdf', ['--qdf', '--object-streams=disable', file, '-']));
    const text = stdout.toString('latin1');
    const streams = [...text.matchAll(/stream\n([\s\S]*?)endstream/g)].map((m) => m[1]!);
    return streams.find((x) => x.includes('Tj')) ?? '';
  }
  const span = '/Span<</ActualText <feff00ad> >> BDC\n7 0 Td <0003> Tj\nEMC\n';

  it('takes out a span when the next glyph is placed by its own Td, and keeps it otherwise', async () => {
    const placed = await withContent(`BT /F1 12 Tf 1 0 0 -1 8 29 Tm <002b> Tj\n${span}0 0 Td <0053> Tj ET`);
    const out = await dropSoftHyphenSpans(placed);
    expect(out.length).toBeGreaterThan(placed.length);
    expect(Buffer.from(out.subarray(0, placed.length)).equals(Buffer.from(placed))).toBe(true);
    const content = await pageContentText(out);
    expect(content).not.toContain('ActualText');
    expect(content).not.toContain('<0003>');
    expect(content).toMatch(/<002b> Tj\s+7 0 Td\s+0 0 Td <0053> Tj/);
    const following = await withContent(`BT /F1 12 Tf <002b> Tj\n${span}<0053> Tj ET`);
    expect(await dropSoftHyphenSpans(following)).toBe(following);
    const none = await withContent('BT /F1 12 Tf <002b> Tj ET');
    expect(await dropSoftHyphenSpans(none)).toBe(none);
  });
});
