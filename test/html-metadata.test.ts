/**
 * HTML output's document information (#21 deviation 2): the request's title, else the
 * document's <title>, else none (Chromium wrote "about:blank"); castpress as producer and
 * creator (Chromium wrote "HeadlessChrome" and "Skia/PDF").
 */
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';

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
