import { afterAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts, rgb } from '@cantoo/pdf-lib';
import {
  createEngine,
  MemoryTemplateStore,
  InvalidPdfError,
  NotFoundError,
  RenderError,
  ValidationError,
} from '../src/index.js';
import {
  assemblePacket,
  createPacketAssembler,
  PacketAssembler,
  TextTagError,
  type PlannedField,
  type SigningFieldWriter,
} from '../src/packets/index.js';
import { formatTimestamp } from '../src/markdown/index.js';
import { buildDocx, CachedDocxConverter } from './helpers/docx.js';
import { qpdfFields, qpdfStrict, readFields, readText } from './helpers/pdf.js';
import { boxDistance, runBoxes, union } from './helpers/tag-boxes.js';

async function pdfWith(lines: Array<{ text: string; x: number; y: number; white?: boolean }>): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  for (const l of lines)
    page.drawText(l.text, { x: l.x, y: l.y, size: 12, font, color: l.white ? rgb(1, 1, 1) : rgb(0, 0, 0) });
  return doc.save();
}

const store = new MemoryTemplateStore();
const engine = createEngine({ templates: store, now: () => new Date('2026-01-02T03:04:05Z') });
// The same annex DOCX goes into several packets here: LibreOffice converts it once (createPacketAssembler's
// test converts it again with a converter of its own). test/packets-docx*.test.ts check the conversion itself.
const converter = new CachedDocxConverter({ maxConcurrent: 1 });
afterAll(async () => {
  converter.close();
  await engine.close();
});

const templatePdf = await pdfWith([
  { text: 'Mutual NDA. Name:', x: 50, y: 700 },
  { text: 'Signed: {{ signature ::: client }}', x: 50, y: 600 },
]);
store.publish({
  eid: 'tmplNDA',
  title: 'Mutual NDA',
  pdf: templatePdf,
  fields: [{ id: 'name', type: 'shortText', pageNum: 0, rect: { x: 160, y: 80, width: 200, height: 16 } }],
});

const uploadPdf = await pdfWith([
  { text: 'Order form for {{ shortText :: company }}', x: 50, y: 700 },
  { text: 'Amount:', x: 50, y: 650 },
]);
const docx = buildDocx([[{ text: 'Annex' }], [{ text: '{{ initial ::: agent }}', color: 'FFFFFF' }]]);

function request(extra: Record<string, unknown> = {}) {
  return {
    name: 'Services packet',
    files: [
      { id: 'nda', castEid: 'tmplNDA' },
      {
        id: 'order',
        file: { data: Buffer.from(uploadPdf).toString('base64'), filename: 'order.pdf', mimetype: 'application/pdf' },
        fields: [
          { id: 'sig', type: 'signature', pageNum: 0, rect: { x: 50, y: 300, width: 200, height: 40 } },
          { id: 'amount', type: 'shortText', pageNum: 0, rect: { x: 110, y: 128, width: 100, height: 16 } },
        ],
      },
      { id: 'annex', file: { data: Buffer.from(docx).toString('base64'), filename: 'annex.docx' }, fields: [] },
      {
        id: 'terms',
        filename: 'terms.pdf',
        title: 'Terms',
        markup: { html: '<h1>Terms</h1><p>Agent:</p><p>{{ signature ::: agent }}</p>', css: 'p { font-size: 14px }' },
        fields: [],
      },
      {
        id: 'summary',
        filename: 'summary',
        title: 'Summary',
        fontSize: 12,
        fields: [
          { heading: 'Summary' },
          { content: 'Client initials:' },
          { content: '{{ initial ::: client }}' },
          { id: 'date', type: 'signatureDate', pageNum: 0, rect: { x: 400, y: 700, width: 120, height: 20 } },
        ],
      },
    ],
    signers: [
      { id: 'client', name: 'Ada Lovelace', email: 'ada@example.com', fields: [{ fileId: 'order', fieldId: 'sig' }] },
      {
        id: 'agent',
        name: 'Bob Agent',
        email: 'bob@example.com',
        signerType: 'embedded',
        fields: [{ fileId: 'summary', fieldId: 'date' }],
      },
    ],
    data: {
      payloads: {
        nda: { data: { name: 'Ada Lovelace' }, filename: 'nda-ada.pdf' },
        order: { data: { company: 'Acme Corp', amount: '100 EUR' } },
      },
    },
    ...extra,
  };
}

const brief = (f: PlannedField) => `${f.fileId}/${f.fieldId}:${f.type}@${f.pageNum}`;

describe('assemblePacket', () => {
  it("assembles all file kinds: fills, finds tags, plans each signer's fields", async () => {
    const calls: Array<{ pages: number; fields: string[] }> = [];
    const writer: SigningFieldWriter = async (pdf, fields) => {
      calls.push({ pages: (await PDFDocument.load(pdf)).getPageCount(), fields: fields.map(brief) });
      return pdf;
    };
    // Tags kept printed: the fields' boxes are measured below against the tags' own text.
    const packet = await assemblePacket(engine, request(), {
      hooks: { writeSigningFields: writer },
      docx: converter,
      hideTextTags: false,
    });

    expect(packet.files.map((f) => [f.id, f.kind, f.filename])).toEqual([
      ['nda', 'template', 'nda-ada.pdf'],
      ['order', 'upload', 'order.pdf'],
      ['annex', 'upload', 'annex.pdf'],
      ['terms', 'html', 'terms.pdf'],
      ['summary', 'markdown', 'summary.pdf'],
    ]);
    expect(packet.plan.signers.map((s) => [s.signerId, s.routingOrder, s.fields.map(brief)])).toEqual([
      ['client', 1, ['nda/signature1:signature@0', 'order/sig:signature@0', 'summary/initial1:initial@0']],
      ['agent', 2, ['annex/initial1:initial@0', 'terms/signature1:signature@0', 'summary/date:signatureDate@0']],
    ]);
    expect(packet.plan.unassigned).toEqual([]);
    expect(calls.map((c) => c.fields)).toEqual([
      ['nda/signature1:signature@0'],
      ['order/sig:signature@0'],
      ['annex/initial1:initial@0'],
      ['terms/signature1:signature@0'],
      ['summary/initial1:initial@0', 'summary/date:signatureDate@0'],
    ]);

    // Fill fields: the template's own, the upload's explicit one and a tag's alias, from data.payloads.
    const nda = (await readText(packet.files[0]!.pdf))[0]!.items.map((i) => i.str).join(' ');
    expect(nda).toContain('Ada Lovelace');
    const order = (await readText(packet.files[1]!.pdf))[0]!.items.map((i) => i.str).join(' ');
    expect(order).toContain('Acme Corp');
    expect(order).toContain('100 EUR');
    expect(packet.files[1]!.fields.find((f) => f.fieldId === 'company')).toMatchObject({
      type: 'shortText',
      alias: 'company',
      source: 'tag',
    });

    // Tags in generated documents and the converted DOCX sit on the tag's text as pdfjs reads it.
    for (const file of packet.files.slice(2)) {
      const runs = await runBoxes(file.pdf);
      for (const f of file.fields.filter((x) => x.source === 'tag')) {
        const line = runs.filter(
          (r) =>
            r.pageNum === f.pageNum &&
            Math.abs(r.y + r.height / 2 - (f.rect.y + f.rect.height / 2)) < 3 &&
            r.str.trim() !== '',
        );
        expect(
          line
            .map((r) => r.str)
            .join('')
            .replace(/\s+/g, ''),
          file.id,
        ).toMatch(/^\{\{.*\}\}$/);
        expect(boxDistance(f.rect, union(line)), file.id).toBeLessThanOrEqual(1);
      }
    }
  });

  it('writes signature and initial fields as empty /Sig widgets where they were planned (qpdf and pdfjs read them back)', async () => {
    const packet = await assemblePacket(engine, request(), { docx: converter });
    for (const file of packet.files) {
      const planned = file.fields.filter((f) => f.type === 'signature' || f.type === 'initial');
      const sigs = (await qpdfFields(file.pdf)).filter((f) => f.fieldtype === '/Sig');
      expect(sigs.map((f) => f.fullname).sort(), file.id).toEqual(planned.map((f) => f.fieldId).sort());
      expect((await qpdfStrict(file.pdf)).ok, file.id).toBe(true);
      const widgets = await readFields(file.pdf);
      const pages = await PDFDocument.load(file.pdf);
      for (const f of planned) {
        const w = widgets.find((x) => x.name === f.fieldId)!;
        expect(w.page, f.fieldId).toBe(f.pageNum);
        // pdfjs gives [x1, y1, x2, y2] in user space; the plan measures from the top-left of the page.
        const height = pages.getPage(f.pageNum).getHeight();
        expect(w.rect[0]).toBeCloseTo(f.rect.x, 1);
        expect(height - w.rect[3]!).toBeCloseTo(f.rect.y, 1);
        expect(w.rect[2]! - w.rect[0]!).toBeCloseTo(f.rect.width, 1);
      }
    }
  });

  it("createPacketAssembler: the same packet through an assembler that owns its converter (the engine's private key)", async () => {
    const assembler = createPacketAssembler(engine);
    const packet = await assembler.assemble(request({ mergePDFs: true })).finally(() => assembler.close());
    const sigs = (await qpdfFields(packet.merged!.pdf)).filter((f) => f.fieldtype === '/Sig');
    expect(sigs.length).toBe(
      packet.merged!.fields.filter((f) => f.type === 'signature' || f.type === 'initial').length,
    );
    expect(sigs.length).toBeGreaterThan(3);
  });

  it('mergePDFs: one PDF through the kernel merge, pages moved, ids unique, /Sig fields on the moved pages', async () => {
    const packet = await assemblePacket(engine, request({ mergePDFs: true }), { docx: converter });
    const merged = packet.merged!;
    const counts = packet.files.map((f) => f.pageCount);
    expect(merged.pageCount).toBe(counts.reduce((a, b) => a + b, 0));
    expect((await PDFDocument.load(merged.pdf)).getPageCount()).toBe(merged.pageCount);
    expect(merged.filename).toBe('Services packet.pdf');
    const ids = merged.fields.map((f) => f.mergedFieldId);
    expect(new Set(ids).size).toBe(ids.length);
    // signature1 is in two files, initial1 in two: qualified by file; sig is unique and kept.
    expect(ids).toEqual(
      expect.arrayContaining([
        'nda.signature1',
        'terms.signature1',
        'annex.initial1',
        'summary.initial1',
        'sig',
        'date',
      ]),
    );
    const offset = (id: string) =>
      counts
        .slice(
          0,
          packet.files.findIndex((f) => f.id === id),
        )
        .reduce((a, b) => a + b, 0);
    for (const f of merged.fields) expect(f.mergedPageNum).toBe(offset(f.fileId) + f.pageNum);

    const signing = merged.fields.filter((f) => f.type === 'signature' || f.type === 'initial');
    const sigs = (await qpdfFields(merged.pdf)).filter((f) => f.fieldtype === '/Sig');
    expect(sigs.map((f) => [f.fullname, f.pageposfrom1]).sort()).toEqual(
      signing.map((f) => [f.mergedFieldId.replaceAll('.', '_'), f.mergedPageNum + 1]).sort(),
    );
    expect((await qpdfStrict(merged.pdf)).ok).toBe(true);
  });

  it('reports document-level problems with their property paths', async () => {
    const only = (files: unknown[], signers?: unknown[], data?: unknown) =>
      request({
        files,
        signers: signers ?? [
          { id: 'client', name: 'Ada', email: 'ada@example.com' },
          { id: 'agent', name: 'Bob', email: 'bob@example.com' },
        ],
        data: data ?? {},
      });
    const upload = (bytes: Uint8Array, fields: unknown[] = []) => ({
      id: 'u',
      file: Buffer.from(bytes).toString('base64'),
      fields,
    });

    const unreadable = await assemblePacket(engine, only([upload(new TextEncoder().encode('%PDF-1.7 garbage'))])).catch(
      (e: unknown) => e,
    );
    expect(unreadable).toBeInstanceOf(InvalidPdfError);
    expect(unreadable).toMatchObject({ status: 422, fields: [{ property: 'files[0].file' }] });
    await expect(assemblePacket(engine, only([upload(new TextEncoder().encode('hello'))]))).rejects.toMatchObject({
      status: 422,
      fields: [{ property: 'files[0].file' }],
    });

    const badPage = await assemblePacket(
      engine,
      only([
        upload(uploadPdf, [{ id: 's', type: 'signature', pageNum: 3, rect: { x: 1, y: 1, width: 9, height: 9 } }]),
      ]),
    ).catch((e: unknown) => e);
    expect(badPage).toBeInstanceOf(ValidationError);
    expect((badPage as ValidationError).fields).toEqual([
      { property: 'files[0].fields[0].pageNum', message: 'The document has 1 page (pageNum counts from 0)' },
    ]);

    // A Markdown file's list holds content blocks and field objects: the path names the field's own place in it.
    const badMarkdownPage = await assemblePacket(
      engine,
      only([
        {
          id: 'md',
          filename: 'md.pdf',
          title: '',
          fields: [
            { heading: 'Terms' },
            { content: 'One page only.' },
            { id: 's', type: 'signature', pageNum: 2, rect: { x: 1, y: 1, width: 9, height: 9 } },
          ],
        },
      ]),
    ).catch((e: unknown) => e);
    expect((badMarkdownPage as ValidationError).fields).toEqual([
      { property: 'files[0].fields[2].pageNum', message: 'The document has 1 page (pageNum counts from 0)' },
    ]);

    const refs = await assemblePacket(
      engine,
      only(
        [
          { id: 'nda', castEid: 'tmplNDA' },
          upload(await pdfWith([{ text: '{{ signature ::: nobody }}', x: 50, y: 700 }])),
        ],
        [
          {
            id: 'client',
            name: 'Ada',
            email: 'ada@example.com',
            fields: [
              { fileId: 'nda', fieldId: 'missing' },
              { fileId: 'nda', fieldId: 'name' },
            ],
          },
        ],
      ),
    ).catch((e: unknown) => e);
    expect((refs as ValidationError).fields.map((f) => f.property)).toEqual([
      'files[1]',
      'signers[0].fields[0].fieldId',
      'signers[0].fields[1].fieldId',
    ]);
    expect((refs as ValidationError).fields[0]!.message).toContain('names signer "nobody"');
    expect((refs as ValidationError).fields[2]!.message).toContain('shortText');

    const missing = await assemblePacket(engine, only([{ id: 'x', castEid: 'nope' }])).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).fields[0]!.property).toBe('files[0].castEid');

    const badData = await assemblePacket(
      engine,
      only([{ id: 'nda', castEid: 'tmplNDA' }], undefined, {
        payloads: { nda: { data: { name: { value: 'x', fontSize: 99 } } } },
      }),
    ).catch((e: unknown) => e);
    expect((badData as ValidationError).fields.map((f) => f.property)).toEqual([
      'data.payloads.nda.data.name.fontSize',
    ]);

    const badBlock = await assemblePacket(
      engine,
      only([
        {
          id: 'm',
          filename: 'm.pdf',
          title: 'M',
          fields: [
            { heading: 'H' },
            { id: 'd', type: 'signatureDate', pageNum: 0, rect: { x: 1, y: 1, width: 9, height: 9 } },
            { content: 'x', fontFamily: 'No Such Font' },
          ],
        },
      ]),
    ).catch((e: unknown) => e);
    expect((badBlock as ValidationError).fields.map((f) => f.property)).toEqual(['files[0].fields[2].fontFamily']);
  });

  it('a template file is filled once: its own fields, its fill-type tags and its /Sig fields in one update over the template', async () => {
    const pdf = await pdfWith([
      { text: 'Lease. Tenant:', x: 50, y: 700 },
      { text: 'City: {{ shortText :: city }}', x: 50, y: 650 },
      { text: 'Signed: {{ signature ::: client }}  {{ initial ::: client }}', x: 50, y: 600 },
    ]);
    store.publish({
      eid: 'tmplLease',
      pdf,
      fields: [{ id: 'tenant', type: 'shortText', pageNum: 0, rect: { x: 140, y: 80, width: 200, height: 16 } }],
    });
    const packet = await assemblePacket(engine, {
      name: 'lease',
      files: [{ id: 'lease', castEid: 'tmplLease' }],
      signers: [{ id: 'client', name: 'Ada', email: 'ada@example.com' }],
      data: { payloads: { lease: { data: { tenant: 'Ada Lovelace', city: 'London' } } } },
    });
    const out = packet.files[0]!.pdf;
    const eofs = (b: Uint8Array) => Buffer.from(b).toString('latin1').match(/%%EOF/g)!.length;
    expect(Buffer.compare(Buffer.from(out.subarray(0, pdf.byteLength)), Buffer.from(pdf))).toBe(0);
    expect(eofs(out)).toBe(eofs(pdf) + 1);
    const text = (await readText(out))[0]!.items.map((i) => i.str).join(' ');
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('London');
    expect((await qpdfFields(out)).map((f) => [f.fullname, f.fieldtype])).toEqual([
      ['signature1', '/Sig'],
      ['initial1', '/Sig'],
    ]);
    expect((await qpdfStrict(out)).ok).toBe(true);
  });

  it('a Markdown file prints the generation time unless includeTimestamp is false, as a generate request', async () => {
    const markdown = (extra: Record<string, unknown>) => ({
      name: 'Notes',
      files: [
        {
          id: 'notes',
          filename: 'notes.pdf',
          title: 'Notes',
          fields: [
            { content: 'Keys are returned at the end.' },
            { id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 600, width: 200, height: 30 } },
          ],
          ...extra,
        },
      ],
      signers: [{ id: 'client', name: 'Ada', email: 'ada@example.com', fields: [{ fileId: 'notes', fieldId: 'sig' }] }],
    });
    const text = async (extra: Record<string, unknown>) => {
      const packet = await assemblePacket(engine, markdown(extra));
      return (await readText(packet.files[0]!.pdf)).flatMap((p) => p.items.map((i) => i.str)).join(' ');
    };
    // The engine's pinned clock, as the Markdown renderer prints it.
    const stamp = formatTimestamp(new Date('2026-01-02T03:04:05Z'));
    const [unset, on, off] = [
      await text({}),
      await text({ includeTimestamp: true }),
      await text({ includeTimestamp: false }),
    ];
    for (const t of [unset, on, off]) expect(t).toContain('Keys are returned at the end.');
    expect(unset).toContain(stamp);
    expect(on).toContain(stamp);
    expect(off).not.toContain(stamp);
    const generated = (await readText(await engine.generate({ includeTimestamp: false, data: [{ content: 'x' }] })))
      .flatMap((p) => p.items.map((i) => i.str))
      .join(' ');
    expect(generated).not.toContain(stamp);
  });

  it("PacketAssembler reads a template's tags once and reuses them; a failed read is not kept", async () => {
    const assembler = new PacketAssembler(engine);
    const signers = [{ id: 'client', name: 'Ada', email: 'ada@example.com' }];
    const first = await assembler.assemble({ name: 'a', files: [{ id: 'nda', castEid: 'tmplNDA' }], signers });
    const second = await assembler.assemble({
      name: 'b',
      files: [{ id: 'other', castEid: 'tmplNDA', title: 'Again' }],
      signers,
    });
    expect(second.plan.signers[0]!.fields.map((f) => [f.fieldId, f.rect])).toEqual(
      first.plan.signers[0]!.fields.map((f) => [f.fieldId, f.rect]),
    );
    expect(second.plan.signers[0]!.fields[0]!.fileId).toBe('other');

    store.publish({ eid: 'tmplBad', pdf: await pdfWith([{ text: '{{ sig }}', x: 50, y: 700 }]), fields: [] });
    const bad = (files: unknown[]) =>
      assembler.assemble({ name: 'c', files, signers }).then(
        () => {
          throw new Error('expected a TextTagError');
        },
        (e: unknown) => {
          expect(e).toBeInstanceOf(TextTagError);
          return e as TextTagError;
        },
      );
    expect((await bad([{ id: 'x', castEid: 'tmplBad' }])).fields[0]!.property).toBe('files[0]');
    expect(
      (
        await bad([
          { id: 'nda', castEid: 'tmplNDA' },
          { id: 'y', castEid: 'tmplBad' },
        ])
      ).fields[0]!.property,
    ).toBe('files[1]');
  });
});
