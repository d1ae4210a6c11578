/**
 * Manual measurement (not a test, not yet a bench/ row): a 20-page, 3-template packet with 10 text
 * tags through PacketAssembler, against filling the same three templates alone, same run.
 * Run: npx tsx test/manual/packet-ratio.mts   (issue #16 goal: ratio at most 1.5)
 */
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { createEngine, MemoryTemplateStore } from '../../src/index.js';
import { PacketAssembler } from '../../src/packets/index.js';

async function doc(pages: number, tags: string[]) {
  const d = await PDFDocument.create();
  const font = await d.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = d.addPage([612, 792]);
    for (let l = 0; l < 40; l++) page.drawText(`Line ${l} of page ${p}: lorem ipsum dolor sit amet, consectetur adipiscing elit.`, { x: 50, y: 750 - l * 17, size: 10, font });
    const t = tags[p];
    if (t) page.drawText(t, { x: 300, y: 60, size: 12, font });
  }
  return d.save();
}
const store = new MemoryTemplateStore();
const fieldsFor = (n: number) => Array.from({ length: n }, (_, p) => ({ id: `f${p}`, type: 'shortText' as const, pageNum: p, rect: { x: 50, y: 20, width: 200, height: 14 } }));
const t1 = await doc(8, ['{{ signature ::: a }}', '', '{{ initial ::: a }}', '', '{{ signatureDate ::: a }}', '', '', '{{ fullName ::: a }}']);
const t2 = await doc(7, ['{{ signature ::: b }}', '', '{{ initial ::: b }}', '', '', '', '{{ signatureDate ::: b }}']);
const t3 = await doc(5, ['{{ signature ::: a }}', '', '{{ initial ::: b }}', '', '{{ email ::: b }}']);
store.publish({ eid: 't1', pdf: t1, fields: fieldsFor(8) });
store.publish({ eid: 't2', pdf: t2, fields: fieldsFor(7) });
store.publish({ eid: 't3', pdf: t3, fields: fieldsFor(5) });
const engine = createEngine({ templates: store });
const data = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}`, `value ${i}`]));
const body = {
  name: 'bench', files: [{ id: 'a', castEid: 't1' }, { id: 'b', castEid: 't2' }, { id: 'c', castEid: 't3' }],
  signers: [{ id: 'a', name: 'A', email: 'a@example.com' }, { id: 'b', name: 'B', email: 'b@example.com' }],
  data: { payloads: { a: { data }, b: { data }, c: { data } } },
};
const fillAlone = async () => { for (const e of ['t1', 't2', 't3']) await engine.fill(e, { data }); };
const asm = new PacketAssembler(engine);
const packet = async () => { const p = await asm.assemble(body); if (p.plan.fields.filter((f) => f.source === 'tag').length !== 10) throw new Error('tags'); };
for (let i = 0; i < 3; i++) { await fillAlone(); await packet(); }
const time = async (fn: () => Promise<void>, n = 10) => { const t = performance.now(); for (let i = 0; i < n; i++) await fn(); return (performance.now() - t) / n; };
const a = await time(fillAlone); const b = await time(packet); const a2 = await time(fillAlone); const b2 = await time(packet);
console.log('fill alone', ((a + a2) / 2).toFixed(1), 'ms; packet', ((b + b2) / 2).toFixed(1), 'ms; ratio', ((b + b2) / (a + a2)).toFixed(2));
await engine.close();
