/**
 * The demo's signature packet (issue 34): a template (an engagement letter from the template
 * store, its signature box from a text tag), a tagged upload (an order form drawn with pdf-lib,
 * so the repository needs no binary fixture) and a Markdown document, for two embedded signers in
 * routing order: the client draws (the recorded stroke below), the provider types.
 */
import { PDFDocument, StandardFonts, rgb } from '@cantoo/pdf-lib';
import type { TemplateInput } from '../src/index.js';

export const LETTER_EID = 'demo-engagement-letter';

/** A line of text; `tag` is a text tag drawn in white after the text, large (its box is the tag's extent), over a rule. */
type Line = { text: string; y: number; size?: number; bold?: boolean; tag?: string };

async function page(lines: Line[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const p = doc.addPage([612, 792]);
  for (const l of lines) {
    p.drawText(l.text, { x: 72, y: l.y, size: l.size ?? 12, font: l.bold ? bold : font, color: rgb(0.1, 0.1, 0.2) });
    if (l.tag) {
      p.drawLine({
        start: { x: 200, y: l.y - 4 },
        end: { x: 460, y: l.y - 4 },
        thickness: 0.6,
        color: rgb(0.6, 0.6, 0.7),
      });
      p.drawText(l.tag, { x: 200, y: l.y, size: 20, font, color: rgb(1, 1, 1) });
    }
  }
  return doc.save();
}

/** The template: the client's name is a field filled from the packet's payload; the signature box is a tag. */
export async function letterTemplate(): Promise<TemplateInput> {
  return {
    eid: LETTER_EID,
    title: 'Engagement letter',
    pdf: await page([
      { text: 'Engagement letter', y: 720, size: 22, bold: true },
      { text: 'Client:', y: 680 },
      { text: 'The provider builds the castpress demo; the client pays on delivery.', y: 640 },
      { text: 'Client signature:', y: 560, tag: '{{ signature ::: client }}' },
    ]),
    fields: [
      {
        id: 'clientName',
        alias: 'clientName',
        type: 'shortText',
        pageNum: 0,
        rect: { x: 120, y: 98, width: 300, height: 18 },
      },
    ],
  };
}

/** The upload: an order form whose two signature boxes are text tags, one per signer. */
export function orderForm(): Promise<Uint8Array> {
  return page([
    { text: 'Order form', y: 720, size: 22, bold: true },
    { text: '1 x castpress demo, delivered as signed PDFs.', y: 680 },
    { text: 'Client:', y: 560, tag: '{{ signature ::: client }}' },
    { text: 'Provider:', y: 480, tag: '{{ signature ::: provider }}' },
  ]);
}

/** The createEtchPacket body: the three files, the two signers, the template's payload. */
export function packetBody(upload: Uint8Array) {
  return {
    name: 'castpress demo engagement',
    isDraft: false,
    files: [
      { id: 'letter', castEid: LETTER_EID },
      {
        id: 'order',
        title: 'Order form',
        file: { data: upload, filename: 'order-form.pdf', mimetype: 'application/pdf' },
        fields: [],
      },
      {
        id: 'terms',
        filename: 'terms.pdf',
        title: 'Terms',
        fields: [
          { heading: 'Terms' },
          { content: 'Payment is due on delivery. The provider initials each page of these terms.' },
          { content: 'Provider initials: {{ initial ::: provider }}' },
        ],
      },
    ],
    signers: [
      { id: 'client', name: 'Ada Lovelace', email: 'ada@example.com', signerType: 'embedded', routingOrder: 1 },
      {
        id: 'provider',
        name: 'Bob Provider',
        email: 'bob@example.com',
        signerType: 'embedded',
        routingOrder: 2,
        signatureMode: 'text',
      },
    ],
    data: { payloads: { letter: { data: { clientName: 'Ada Lovelace' } } } },
  };
}

/**
 * A signature in the form a pad records it and the signing page sends it: strokes of points in the
 * pad's CSS pixels (y down). Two strokes, a hand-written-looking line and an underline, kept here as
 * data (written for the demo, not captured from a device).
 */
export const RECORDED_STROKES: ReadonlyArray<ReadonlyArray<{ x: number; y: number }>> = [
  [
    { x: 20, y: 90 },
    { x: 32, y: 70 },
    { x: 44, y: 48 },
    { x: 56, y: 28 },
    { x: 64, y: 18 },
    { x: 70, y: 24 },
    { x: 76, y: 44 },
    { x: 84, y: 66 },
    { x: 92, y: 88 },
    { x: 98, y: 80 },
    { x: 104, y: 62 },
    { x: 116, y: 52 },
    { x: 130, y: 54 },
    { x: 138, y: 66 },
    { x: 132, y: 80 },
    { x: 118, y: 84 },
    { x: 110, y: 74 },
    { x: 122, y: 62 },
    { x: 144, y: 60 },
    { x: 160, y: 70 },
    { x: 172, y: 84 },
    { x: 186, y: 70 },
    { x: 198, y: 58 },
    { x: 214, y: 62 },
    { x: 224, y: 76 },
    { x: 236, y: 82 },
    { x: 252, y: 70 },
  ],
  [
    { x: 30, y: 104 },
    { x: 80, y: 100 },
    { x: 140, y: 98 },
    { x: 200, y: 99 },
    { x: 250, y: 102 },
  ],
];
