/**
 * Field detection on hostile input: mutants of the hostile fixtures (seeded: ROBUST_SEED replays
 * or varies a run), the minimal structural cases and the slow inputs of test/pdf-hostile.test.ts,
 * junk, and pages drawn to exhaust the walk. Every call gives a result or a typed error
 * (InvalidPdfError 422, ValidationError 400), within a bound of CPU time (process.cpuUsage, as
 * pdf-hostile measures: the wall clock would count the neighbours too); the page walk stops at
 * its operator and point caps and says so in a note (counted, not timed).
 */
import { PDFDocument, PDFName, StandardFonts } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { DETECTION_LIMITS, detectFields } from '../src/detect/index.js';
import { isCastpressError } from '../src/errors/index.js';
import { HOSTILE_FIXTURES, hostileFixture, MINIMAL_CASES, MUTATIONS, slowCases } from './helpers/pdf-mutants.js';
import { seededRandom } from './helpers/random.js';

const fixture = hostileFixture;
const FIXTURES = HOSTILE_FIXTURES;

const SEED = Number(process.env.ROBUST_SEED ?? 5151);
/** Mutants per kind and fixture (HOSTILE_PER_KIND for longer runs). */
const PER_KIND = Number(process.env.HOSTILE_PER_KIND ?? 1);
/** CPU time allowed per call: the largest fixture (30 pages) takes about 0.2 s. */
const CPU_LIMIT_MS = 2000;

interface Outcome {
  label: string;
  result: 'detected' | 'typed' | 'untyped';
  cpuMs: number;
  detail: string;
}

async function run(label: string, pdf: Uint8Array): Promise<Outcome> {
  const cpu0 = process.cpuUsage();
  let result: Outcome['result'] = 'detected';
  let detail = '';
  try {
    const found = await detectFields(pdf);
    // What comes back is well formed: unique ids, positive rects on existing pages.
    const ids = new Set(found.proposals.map((p) => p.field.id));
    if (ids.size !== found.proposals.length) throw new Error('duplicate ids');
    for (const p of found.proposals)
      if (!(p.field.pageNum < found.pages.length && p.field.rect.width > 0 && p.field.rect.height > 0))
        throw new Error(`bad proposal ${JSON.stringify(p.field)}`);
  } catch (e) {
    const typed =
      isCastpressError(e) &&
      ['InvalidPdfError', 'ValidationError'].includes(e.name) &&
      e.fields.length > 0 &&
      e.fields.every((f) => typeof f.property === 'string' && typeof f.message === 'string');
    result = typed ? 'typed' : 'untyped';
    detail = e instanceof Error ? `${e.name}: ${e.message}`.slice(0, 300) : String(e);
  }
  const cpu = process.cpuUsage(cpu0);
  return { label, result, cpuMs: (cpu.user + cpu.system) / 1000, detail };
}

function check(batch: Outcome[]): void {
  expect(batch.filter((o) => o.result === 'untyped').map((o) => `${o.label}: ${o.detail}`)).toEqual([]);
  expect(batch.filter((o) => o.cpuMs > CPU_LIMIT_MS).map((o) => `${o.label}: ${o.cpuMs.toFixed(0)} ms`)).toEqual([]);
}

describe('detection on hostile PDFs: a result or a typed error, never a crash or a hang', () => {
  it.each(FIXTURES)(
    'mutants of %s',
    async (name) => {
      const original = fixture(name);
      expect((await run(name, original)).result).toBe('detected');
      const rng = seededRandom(SEED + FIXTURES.indexOf(name) * 1000);
      const batch: Outcome[] = [];
      for (const [kind, mutate] of Object.entries(MUTATIONS))
        for (let i = 0; i < PER_KIND; i++)
          batch.push(await run(`${name} ${kind}#${i} (seed ${SEED})`, mutate(original, rng)));
      check(batch);
    },
    120_000,
  );

  it('the minimal structural cases and the slow inputs', async () => {
    const cases = { ...MINIMAL_CASES, ...slowCases(fixture('qpdf_enc_rc4_128_owner_only_30p.pdf')) };
    const batch: Outcome[] = [];
    for (const [label, pdf] of Object.entries(cases)) batch.push(await run(label, pdf));
    check(batch);
  }, 60_000);

  it('junk is an InvalidPdfError, anything but bytes a ValidationError', async () => {
    for (const junk of [
      new Uint8Array(0),
      new TextEncoder().encode('%PDF-1.7\nnothing else'),
      new Uint8Array(4096).fill(7),
    ])
      await expect(detectFields(junk)).rejects.toMatchObject({ name: 'InvalidPdfError', status: 422 });
    await expect(detectFields('a.pdf' as unknown as Uint8Array, { property: 'file' })).rejects.toMatchObject({
      name: 'ValidationError',
      fields: [{ property: 'file', message: 'Expected the bytes of a PDF' }],
    });
  });
});

/** A one-page PDF whose content stream is `content`. */
async function drawn(content: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(content)));
  return doc.save();
}

describe('the page walk is bounded', () => {
  it('stops at the operator cap and says so', async () => {
    // Small boxes down the page: twice as many operators as the walk reads.
    const parts: string[] = [];
    for (let i = 0; parts.length < DETECTION_LIMITS.maxOperators; i++)
      parts.push(`${10 + (i % 50) * 11} ${10 + (Math.floor(i / 50) % 70) * 11} 9 9 re S`);
    const result = await detectFields(await drawn(parts.join('\n')));
    expect(result.notes).toEqual([{ pageNum: 0, message: 'The page draws more than is read: only its beginning was' }]);
    expect(result.proposals.length).toBeLessThanOrEqual(DETECTION_LIMITS.maxProposals);
  }, 60_000);

  it('passes over a page whose drawing decodes past the budget, and reads the others', async () => {
    const doc = await PDFDocument.create();
    const helv = await doc.embedFont(StandardFonts.Helvetica);
    const first = doc.addPage([612, 792]);
    first.drawText('Full name:', { x: 50, y: 700, size: 10, font: helv });
    first.drawLine({ start: { x: 120, y: 698 }, end: { x: 400, y: 698 }, thickness: 0.75 });
    // A megabyte or so of deflate data that decodes to more than the budget.
    const second = doc.addPage([612, 792]);
    const blank = ' '.repeat(DETECTION_LIMITS.maxContentBytes + 1024);
    second.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(blank)));
    const result = await detectFields(await doc.save());
    expect(result.proposals.map((p) => [p.field.pageNum, p.label])).toEqual([[0, 'Full name']]);
    expect(result.notes).toEqual([{ pageNum: 1, message: 'The page draws more than is read: it was passed over' }]);
  }, 60_000);

  it('stops at the paths point budget and says so', async () => {
    // One path of 300 000 points: few operators, more points than a page's budget.
    const parts = ['0 0 m'];
    for (let i = 0; i < 300_000; i++) parts.push(`${i % 600} ${(i * 7) % 780} l`);
    parts.push('S');
    const result = await detectFields(await drawn(parts.join('\n')));
    expect(result.notes.map((x) => x.message)).toEqual(['The page draws more than is read: only its beginning was']);
  }, 60_000);
});
