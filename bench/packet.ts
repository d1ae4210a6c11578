/**
 * A signature packet's document side: a 20-page packet of 3 templates with 10
 * text tags through the engine's PacketAssembler (fill, tags, /Sig fields), against
 * filling the same three templates alone, in the same run (goal: ratio ≤ 1.5).
 * Run alone with `npm run bench -- packet`.
 */
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { createEngine, MemoryTemplateStore } from '../src/index.js';
import { PacketAssembler } from '../src/packets/index.js';
import { interleaved, type BenchRow } from './types.js';

async function doc(pages: number, tags: string[]) {
  const d = await PDFDocument.create();
  const font = await d.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = d.addPage([612, 792]);
    for (let l = 0; l < 40; l++)
      page.drawText(`Line ${l} of page ${p}: lorem ipsum dolor sit amet, consectetur adipiscing elit.`, {
        x: 50,
        y: 750 - l * 17,
        size: 10,
        font,
      });
    const t = tags[p];
    if (t) page.drawText(t, { x: 300, y: 60, size: 12, font });
  }
  return d.save();
}
export async function run(): Promise<BenchRow[]> {
  const store = new MemoryTemplateStore();
  const fieldsFor = (n: number) =>
    Array.from({ length: n }, (_, p) => ({
      id: `f${p}`,
      type: 'shortText' as const,
      pageNum: p,
      rect: { x: 50, y: 20, width: 200, height: 14 },
    }));
  const t1 = await doc(8, [
    '{{ signature ::: a }}',
    '',
    '{{ initial ::: a }}',
    '',
    '{{ signatureDate ::: a }}',
    '',
    '',
    '{{ fullName ::: a }}',
  ]);
  const t2 = await doc(7, [
    '{{ signature ::: b }}',
    '',
    '{{ initial ::: b }}',
    '',
    '',
    '',
    '{{ signatureDate ::: b }}',
  ]);
  const t3 = await doc(5, ['{{ signature ::: a }}', '', '{{ initial ::: b }}', '', '{{ email ::: b }}']);
  store.publish({ eid: 't1', pdf: t1, fields: fieldsFor(8) });
  store.publish({ eid: 't2', pdf: t2, fields: fieldsFor(7) });
  store.publish({ eid: 't3', pdf: t3, fields: fieldsFor(5) });
  const engine = createEngine({ templates: store });
  const data = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}`, `value ${i}`]));
  const body = {
    name: 'bench',
    files: [
      { id: 'a', castEid: 't1' },
      { id: 'b', castEid: 't2' },
      { id: 'c', castEid: 't3' },
    ],
    signers: [
      { id: 'a', name: 'A', email: 'a@example.com' },
      { id: 'b', name: 'B', email: 'b@example.com' },
    ],
    data: { payloads: { a: { data }, b: { data }, c: { data } } },
  };
  const fillAlone = async () => {
    for (const e of ['t1', 't2', 't3']) await engine.fill(e, { data });
  };
  const asm = new PacketAssembler(engine);
  const packet = async () => {
    const p = await asm.assemble(body);
    if (p.plan.fields.filter((f) => f.source === 'tag').length !== 10) throw new Error('tags');
  };
  try {
    const [subject, anchor] = await interleaved(packet, fillAlone, 15);
    return [
      {
        name: '20-page 3-template packet, 10 tags (anchor: filling the 3 templates)',
        value: subject,
        baseline: anchor,
        ratio: subject / anchor,
        unit: 'ms',
        goal: '<= 1.5',
      },
    ];
  } finally {
    await engine.close();
  }
}
