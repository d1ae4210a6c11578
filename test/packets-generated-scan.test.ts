/**
 * A Markdown file of a packet is read for text tags by pdf.js only when its blocks can show a `{`
 * (pdf.js cost a process ~0.4 s of CPU on its first packet, for a document it generated
 * itself and that held no tag). This file must run in a process of its own (vitest's forks pool,
 * one process per file) and its first test must stay first: it checks that pdf.js was never loaded.
 */
import { describe, expect, it } from 'vitest';
import { PDFDocument, degrees } from '@cantoo/pdf-lib';
import { createEngine } from '../src/index.js';
import { assemblePacket, scanPdf, type PlannedField } from '../src/packets/index.js';
import { mayShowBrace, scanGeneratedPdf } from '../src/packets/tags/find.js';
import { displayedPageSizes } from '../src/pdf/index.js';
import { literalText } from '../src/format/index.js';

const engine = createEngine({ now: () => new Date('2026-01-02T03:04:05Z') });
const source = { fileId: 'doc', property: 'files[0]' };

const packet = (blocks: Array<Record<string, unknown>>) => ({
  name: 'Generated',
  files: [
    {
      id: 'doc',
      filename: 'doc.pdf',
      title: 'Doc',
      fields: [
        ...blocks,
        { id: 'sig', type: 'signature', pageNum: 1, rect: { x: 72, y: 200, width: 200, height: 30 } },
      ],
    },
  ],
  signers: [{ id: 'client', name: 'Ada', email: 'ada@example.com', fields: [{ fileId: 'doc', fieldId: 'sig' }] }],
});

const long = Array.from({ length: 30 }, (_, i) => ({ content: `Clause ${i}: the parties agree, and so on.` }));
const brief = (f: PlannedField) => `${f.fieldId}:${f.type}@${f.pageNum}`;

describe('a Markdown file that shows no brace', () => {
  it('is assembled without loading pdf.js (globalThis.pdfjsLib, set when pdf.js loads, stays unset), its pages counted by the kernel', async () => {
    expect('pdfjsLib' in globalThis).toBe(false);
    const assembled = await assemblePacket(engine, packet(long));
    // Two pages: the signature field on the second (pageNum 1) is placed, not refused.
    expect(assembled.plan.signers[0]!.fields.map(brief)).toEqual(['sig:signature@1']);
    expect('pdfjsLib' in globalThis).toBe(false);
    // A page past the end is still refused with the document's page count.
    await expect(
      assemblePacket(engine, {
        ...packet(long),
        files: [
          {
            ...packet(long).files[0]!,
            fields: [...long, { id: 'x', type: 'signature', pageNum: 5, rect: { x: 1, y: 1, width: 9, height: 9 } }],
          },
        ],
      }),
    ).rejects.toMatchObject({
      fields: [{ message: 'The document has 2 pages (pageNum counts from 0)' }],
    });
    expect('pdfjsLib' in globalThis).toBe(false);
  });

  it('gets the page sizes pdf.js reads (rotated and cropped pages too)', async () => {
    const generated = await engine.generate({ type: 'markdown', data: long });
    const kernel = await scanGeneratedPdf(generated, source, { data: long });
    expect(kernel).toEqual({ pages: (await scanPdf(generated, source)).pages, tags: [], tagGlyphs: [], inForms: [] });
    expect(kernel.pages).toHaveLength(2);

    const doc = await PDFDocument.create();
    doc.addPage([612, 792]);
    doc.addPage([612, 792]).setRotation(degrees(90));
    const cropped = doc.addPage([595, 842]);
    cropped.setCropBox(20, 30, 400, 500);
    cropped.setRotation(degrees(270));
    const bytes = await doc.save();
    expect(await displayedPageSizes(bytes)).toEqual((await scanPdf(bytes, source)).pages);
  });
});

describe('a Markdown file that can show a brace', () => {
  it('is read for tags: one written with braces, and one written with HTML entities', async () => {
    for (const tag of ['{{ initial ::: client }}', '&#123;&#123; initial ::: client &#125;&#125;']) {
      const assembled = await assemblePacket(engine, packet([...long, { content: `Initials: ${tag}` }]));
      expect(assembled.plan.signers[0]!.fields.map(brief)).toEqual(['sig:signature@1', 'initial1:initial@1']);
    }
  });

  it('mayShowBrace: a `{` or an `&` in any string value, at any depth; keys are not shown', () => {
    expect(mayShowBrace({ data: [{ content: 'Packet 1' }, { table: { rows: [['a', 'b']] } }], fontSize: 12 })).toBe(
      false,
    );
    expect(mayShowBrace({ data: [{ table: { rows: [['a', 'x {']] } }] })).toBe(true);
    expect(mayShowBrace({ data: [{ content: 'Fish &amp; chips' }] })).toBe(true);
    expect(mayShowBrace({ title: '{{ signature }}', data: [] })).toBe(true);
    expect(mayShowBrace({ data: [{ content: 'Sign: \uff5b\uff5b signature \uff5d\uff5d' }] })).toBe(true);
    expect(mayShowBrace({ data: [{ content: 'Déjà vu, 東京' }] })).toBe(false);
    expect(mayShowBrace({ '{{': 'keys are not drawn' })).toBe(false);
    expect(mayShowBrace([null, 3, true, undefined])).toBe(false);
    // Values (literal spans) are never tags, whatever braces they show.
    expect(mayShowBrace({ data: [{ content: `Notes: ${literalText('{{ signature }} &#123;')}` }] })).toBe(false);
    expect(mayShowBrace({ data: [{ content: `{{ initial }} ${literalText('x')}` }] })).toBe(true);
  });
});
