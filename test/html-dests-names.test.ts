/**
 * The print's named destinations (src/html/post/dests.ts) are read, moved and pruned by name: each name is
 * decoded once (counted through PDFName.decodeText), pages are found by their reference, and the values
 * read and moved are those written.
 */
import { randomUUID } from 'node:crypto';
import { PDFDocument, PDFName, PDFNull } from '@cantoo/pdf-lib';
import { describe, expect, it, vi } from 'vitest';
import { readDests, removeDests, shiftDests } from '../src/html/post/dests.js';

describe('named destinations', () => {
  it('decodes each name once over a read, a move and a prune', async () => {
    const doc = await PDFDocument.create();
    const pages = Array.from({ length: 40 }, () => doc.addPage([600, 800]));
    const dests = doc.context.obj({});
    // Names not seen before in this process: two per page, one of them a helper.
    const tag = randomUUID().slice(0, 8);
    const names: string[] = [];
    pages.forEach((p, i) => {
      for (const kind of ['own', '__fs_']) {
        const name = `${kind}${tag}-${i}`;
        names.push(name);
        dests.set(PDFName.of(name), doc.context.obj([p.ref, PDFName.of('XYZ'), 10, 700 - i, PDFNull]));
      }
    });
    doc.catalog.set(PDFName.of('Dests'), dests);
    const isHelper = (n: string): boolean => n.startsWith('__fs_');

    const decode = vi.spyOn(PDFName.prototype, 'decodeText');
    const found = readDests(doc);
    const moved = shiftDests(doc, isHelper, (page) => ({ dx: 1, dy: -page }));
    removeDests(doc, isHelper);
    const calls = decode.mock.calls.length;
    decode.mockRestore();

    expect(found.size).toBe(80);
    expect(found.get(`own${tag}-3`)).toEqual({ page: 3, x: 10, y: 697 });
    expect(moved).toBe(40);
    const left = doc.catalog.lookup(PDFName.of('Dests'));
    const kept = readDests(doc);
    expect([...kept.keys()].sort()).toEqual(names.filter((n) => !isHelper(n)).sort());
    expect(kept.get(`own${tag}-3`)).toEqual({ page: 3, x: 11, y: 694 });
    expect(left).toBeDefined();
    // One decoding per name (80), whatever reads them after.
    expect(calls).toBeLessThanOrEqual(names.length);
  });
});
