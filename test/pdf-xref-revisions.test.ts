/**
 * The kernel's reading of a revision by its cross-reference sections (src/pdf/parse/xref-revisions.ts):
 * the same objects a reader in file order finds for files whose sections say what their bodies
 * are (a classic table; qpdf's object streams with a PNG-predicted cross-reference stream; a
 * hybrid file whose table marks compressed objects free), and the differences that matter when
 * they disagree: an entry re-pointed at an earlier body, an entry freed, a /Prev loop.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XrefRevisions, readRevisionGraph, revisionEnds, type RevisionGraph } from '../src/pdf/index.js';
import { appendUpdate, offsetsOf, tailOf } from './helpers/pdf-updates.js';
import { tempDir, tool } from './helpers/signing.js';
import { tamperBase } from './helpers/tamper-base.js';

let tmp: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  tmp = await tempDir('castpress-xref-');
});
afterAll(async () => tmp?.remove());

const texts = (g: RevisionGraph): Record<string, string> =>
  Object.fromEntries([...g.objects].map(([ref, s]) => [ref, s.text]).sort(([a], [b]) => (a! < b! ? -1 : 1)));

/** What both readings find, for the objects the cross-references name. */
async function agree(pdf: Uint8Array): Promise<void> {
  const end = pdf.length;
  const byXref = new XrefRevisions(pdf).graph(end);
  expect(byXref.fatal).toBeUndefined();
  const inOrder = await readRevisionGraph(pdf, end);
  const fileOrder = texts(inOrder);
  const named = texts(byXref);
  expect(Object.keys(named).length).toBeGreaterThan(5);
  for (const [ref, text] of Object.entries(named)) expect(text, ref).toBe(fileOrder[ref]);
  expect(byXref.root).toBe(inOrder.root);
}

describe('reading a revision by its cross-reference sections', () => {
  it('a classic table: the objects it names, the shadow bodies it does not name left out', async () => {
    // The shadow bodies come first in the file: the file-order reader also ends on the named ones.
    await agree(tamperBase());
  });

  it('qpdf object streams with a PNG-predicted cross-reference stream', async () => {
    const input = path.join(tmp.dir, 'in.pdf');
    const output = path.join(tmp.dir, 'objstm.pdf');
    await writeFile(input, tamperBase());
    const q = await tool('qpdf', ['--object-streams=generate', input, output]);
    expect(q.code, q.stderr).toBe(0);
    const pdf = new Uint8Array(await readFile(output));
    expect(Buffer.from(pdf).toString('latin1')).toMatch(/\/Predictor 12/);
    await agree(pdf);
  });

  it('a hybrid update: the table marks the compressed object free, its /XRefStm locates it', async () => {
    const base = tamperBase();
    const text = Buffer.from(base).toString('latin1');
    const tail = tailOf(base);
    // Object 16 (/Info) again, inside an object stream (number 40), located by an xref stream (41).
    const inner = '<< /Title (Hybrid) >>';
    const head = '16 0 ';
    const data = deflateSync(Buffer.from(head + inner, 'latin1'));
    let at = base.length;
    const objstm = `40 0 obj\n<< /Type /ObjStm /N 1 /First ${head.length} /Filter /FlateDecode /Length ${data.length} >>\nstream\n`;
    const objstmAt = at;
    at += objstm.length + data.length + '\nendstream\nendobj\n'.length;
    const rows = Buffer.from([1, ...u32(objstmAt), 0, 0, 2, 0, 0, 0, 40, 0, 0]);
    const xrefStmAt = at;
    const stm = `41 0 obj\n<< /Type /XRef /Size 42 /W [1 4 2] /Index [40 1 16 1] /Length ${rows.length} >>\nstream\n`;
    at += stm.length + rows.length + '\nendstream\nendobj\n'.length;
    const table = `xref\n16 1\n0000000000 00001 f \ntrailer\n<< /Size 42 /Root 1 0 R /Info 16 0 R /Prev ${tail.startXRef} /XRefStm ${xrefStmAt} >>\nstartxref\n${at}\n%%EOF\n`;
    const pdf = new Uint8Array(
      Buffer.concat([
        Buffer.from(base),
        Buffer.from(objstm, 'latin1'),
        data,
        Buffer.from(`\nendstream\nendobj\n${stm}`, 'latin1'),
        rows,
        Buffer.from(`\nendstream\nendobj\n${table}`, 'latin1'),
      ]),
    );
    expect(text).toContain('/Title (Contract)');
    const g = new XrefRevisions(pdf).graph(pdf.length);
    expect(g.fatal).toBeUndefined();
    expect(g.objects.get('16 0')!.value).toEqual({ dict: { Title: { string: 'Hybrid' } } });
    expect(g.objects.has('5 0')).toBe(true); // from the table /Prev names
  });

  it('an entry re-pointed at an earlier body, an entry freed, a /Prev loop', () => {
    const base = tamperBase();
    const repointed = appendUpdate(base, { repoint: { 5: offsetsOf(base, 5)[0]! } });
    const ends = revisionEnds(repointed);
    const reader = new XrefRevisions(repointed);
    const [before, after] = ends.map((e) => reader.graph(e));
    expect(after!.objects.get('5 0')!.text).not.toBe(before!.objects.get('5 0')!.text);
    // An entry both revisions share is the same snapshot (compared by identity).
    expect(after!.objects.get('4 0')).toBe(before!.objects.get('4 0'));
    const freed = appendUpdate(base, { free: [7] });
    expect(new XrefRevisions(freed).graph(freed.length).objects.has('7 0')).toBe(false);
    const loop = appendUpdate(base, { repoint: { 5: offsetsOf(base, 5)[1]! }, prev: base.length });
    expect(new XrefRevisions(loop).graph(loop.length).fatal).toMatch(/loop/);
  });
});

function u32(n: number): number[] {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
}
