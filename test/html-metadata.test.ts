/**
 * HTML output's document information: the request's title, else the
 * document's <title>, else none (Chromium wrote "about:blank"); castpress as producer and
 * creator (Chromium wrote "HeadlessChrome" and "Skia/PDF").
 */
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { qpdfCheck, readOutline as outline, type OutlineNode } from './helpers/pdf.js';

const engine = createEngine();
afterAll(() => engine.close());

async function info(html: string, title?: string) {
  const pdf = await engine.generate({ type: 'html', ...(title ? { title } : {}), data: { html, css: '' } });
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  return { title: doc.getTitle(), producer: doc.getProducer(), creator: doc.getCreator() };
}

describe('HTML document information', () => {
  it('no title anywhere: no Title entry; castpress as producer and creator', async () => {
    expect(await info('<p>x</p>')).toEqual({ title: undefined, producer: 'castpress', creator: 'castpress' });
  }, 60_000);

  it("the document's <title>, or the request's title over it", async () => {
    expect((await info('<title>Invoice 42</title><p>x</p>')).title).toBe('Invoice 42');
    expect((await info('<title>Invoice 42</title><p>x</p>', 'From the request')).title).toBe('From the request');
  }, 60_000);
});

describe('HTML bookmarks and <meta>', () => {
  it('makes an outline from h1-h6 at their pages and positions, nested by level, with bookmark-* overrides', async () => {
    const html = `<title>Doc</title><h1>Intro</h1><p>x</p><h2>Scope</h2><h3>Detail</h3>
      <h1 style="break-before: page; margin-top: 100px">Body</h1><h2 class="quiet">Hidden</h2><h4>Deep</h4>
      <div class="mark" data-label="Custom">not a heading</div><h2 class="closed">Closed</h2><h3>Inside</h3>`;
    const css = `body { margin: 0 } h1 { margin: 0 } h2.quiet { bookmark-level: none; } .mark { bookmark-level: 2; bookmark-label: "★ " attr(data-label); }
      h2.closed { bookmark-state: closed; }`;
    const pdf = await engine.generate({ type: 'html', data: { html, css } });
    await qpdfCheck(pdf);
    const tree = await outline(pdf);
    const shape = (nodes: OutlineNode[]): unknown =>
      nodes.map((n) => [n.title, n.page, ...(n.items.length ? [shape(n.items)] : [])]);
    expect(shape(tree)).toEqual([
      ['Intro', 1, [['Scope', 1, [['Detail', 1]]]]],
      [
        'Body',
        2,
        [
          ['Deep', 2],
          ['★ Custom', 2],
          ['Closed', 2, [['Inside', 2]]],
        ],
      ],
    ]);
    expect(tree[1]!.items[2]!.open).toBe(false);
    expect(tree[0]!.open).toBe(true);
    // Letter, 50px (37.5pt) margins: Intro at the top of the content box, Body 100px (75pt) lower
    expect(tree[0]!.top).toBeCloseTo(792 - 37.5, 0);
    expect(tree[1]!.top).toBeCloseTo(792 - 37.5 - 75, 0);
  }, 60_000);

  it('takes author, subject and keywords from <meta>', async () => {
    const html = `<head><title>T</title><meta name="author" content="Ada Lovelace"><meta name="description" content="Notes on the engine">
      <meta name="keywords" content="engine, notes"></head><p>x</p>`;
    const doc = await PDFDocument.load(await engine.generate({ type: 'html', data: { html, css: '' } }), {
      updateMetadata: false,
    });
    expect([doc.getTitle(), doc.getAuthor(), doc.getSubject(), doc.getKeywords()]).toEqual([
      'T',
      'Ada Lovelace',
      'Notes on the engine',
      'engine notes',
    ]);
  }, 60_000);
});
