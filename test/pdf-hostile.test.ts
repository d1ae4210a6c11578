/**
 * Hostile and slow PDFs: mutants of corpus forms
 * (seeded: ROBUST_SEED replays or varies a run), the five minimal structural
 * cases and the three slow inputs go through template import,
 * flat fill and interactive fill. Every call must give a PDF or a typed error
 * (InvalidPdfError 422 for the file; ValidationError 400 when the mutant has
 * fewer pages than the template's fields need), and take well under a second
 * of CPU. CPU time (process.cpuUsage) is what is asserted: on a loaded shared
 * machine the wall clock measures the neighbours too. The slowest calls are
 * printed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, isCastpressError, type TemplateField, type TemplateInput } from '../src/index.js';
import { templateFromPdf } from '../src/fields/index.js';
import { loadPdf } from '../src/pdf/index.js';
import {
  HOSTILE_FIXTURES,
  hostileFixture,
  MINIMAL_CASES,
  MUTATIONS,
  slowCases,
  type Rng,
} from './helpers/pdf-mutants.js';
import { seededRandom } from './helpers/random.js';

const engine = createEngine({ now: () => new Date('2026-01-01T00:00:00Z') });
afterAll(() => engine.close());

const fixture = hostileFixture;
const FIXTURES = HOSTILE_FIXTURES;

/** Mutants per kind and fixture (HOSTILE_PER_KIND for longer runs): 16 kinds × 5 fixtures × 2 = 160 mutants, × 4 calls. */
const PER_KIND = Number(process.env.HOSTILE_PER_KIND ?? 2);
/** CPU time allowed per call (this process's CPU, not wall time: other processes barely change it). */
const CPU_LIMIT_MS = 1000;

/** `imported`: the template templateFromPdf makes of the mutant, filled (it must be a valid template). */
type Mode = 'import' | 'flat' | 'interactive' | 'imported';
const MODES: Mode[] = ['import', 'flat', 'interactive', 'imported'];

interface Outcome {
  label: string;
  mode: Mode;
  cpuMs: number;
  wallMs: number;
  result: 'pdf' | 'typed' | 'untyped';
  detail: string;
}

/** A template over the original: some of its own fields (by AcroForm name) and one new text field. */
async function templateOf(pdf: Uint8Array): Promise<{ fields: TemplateField[]; data: Record<string, unknown> }> {
  const own = ((await templateFromPdf(pdf)).fields as TemplateField[])
    .filter((f) => ['shortText', 'longText', 'checkbox', 'radioGroup'].includes(f.type))
    .slice(0, 6);
  const fields: TemplateField[] = [
    ...own,
    { id: 'added', alias: 'added', type: 'shortText', pageNum: 0, rect: { x: 40, y: 40, width: 200, height: 20 } },
  ];
  return { fields, data: dataFor(fields) };
}

/** A value each field accepts. */
function dataFor(fields: TemplateField[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const f of fields) {
    data[f.alias ?? f.id] =
      f.type === 'checkbox'
        ? true
        : f.type === 'radioGroup'
          ? f.options?.[0]?.id
          : f.type === 'charList'
            ? '1'
            : 'Hostile 123';
  }
  return data;
}

async function run(
  label: string,
  mode: Mode,
  pdf: Uint8Array,
  template: { fields: TemplateField[]; data: Record<string, unknown> },
): Promise<Outcome> {
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now(); // clock-ok: wall time is only printed (slowest cases); the limit is on CPU time
  let result: Outcome['result'];
  let detail = '';
  try {
    if (mode === 'import') await templateFromPdf(pdf);
    else if (mode === 'imported') {
      const imported = await templateFromPdf(pdf);
      const fields = imported.fields as TemplateField[];
      await engine.fill({ ...imported, eid: 'imported' }, { data: dataFor(fields) });
      await engine.fill({ ...imported, eid: 'imported' }, { data: dataFor(fields), useInteractiveFields: true });
    } else {
      const input: TemplateInput = { eid: 'hostile', pdf, fields: template.fields };
      const out = await engine.fill(input, { data: template.data, useInteractiveFields: mode === 'interactive' });
      if (Buffer.from(out.subarray(0, 5)).toString('latin1') !== '%PDF-') throw new Error('output is not a PDF');
    }
    result = 'pdf';
  } catch (e) {
    // A template made by templateFromPdf must be valid: only the file can be at fault.
    const typed =
      isCastpressError(e) &&
      ((e.name === 'InvalidPdfError' && e.status === 422) ||
        (e.name === 'ValidationError' && e.status === 400 && mode !== 'imported')) &&
      e.fields.length > 0 &&
      e.fields.every((f) => typeof f.property === 'string' && typeof f.message === 'string');
    result = typed ? 'typed' : 'untyped';
    detail = e instanceof Error ? `${e.name}: ${e.message}`.slice(0, 300) : String(e);
  }
  const cpu = process.cpuUsage(cpu0);
  return { label, mode, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - wall0, result, detail };
}

const outcomes: Outcome[] = [];

function check(batch: Outcome[]): void {
  outcomes.push(...batch);
  const untyped = batch.filter((o) => o.result === 'untyped');
  const slow = batch.filter((o) => o.cpuMs > CPU_LIMIT_MS);
  expect(untyped.map((o) => `${o.label} [${o.mode}]: ${o.detail}`)).toEqual([]);
  expect(slow.map((o) => `${o.label} [${o.mode}]: ${o.cpuMs.toFixed(0)} ms CPU`)).toEqual([]);
}

afterAll(() => {
  const byResult = { pdf: 0, typed: 0, untyped: 0 };
  for (const o of outcomes) byResult[o.result]++;
  const slowest = [...outcomes].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 5);
  console.log(
    `pdf-hostile: ${outcomes.length} calls (${JSON.stringify(byResult)}); slowest by CPU:\n` +
      slowest
        .map(
          (o) => `  ${o.cpuMs.toFixed(0)} ms CPU, ${o.wallMs.toFixed(0)} ms wall — ${o.label} [${o.mode}] ${o.result}`,
        )
        .join('\n'),
  );
});

const SEED = Number(process.env.ROBUST_SEED ?? 2323);

describe('hostile PDFs: mutants of corpus forms × import, flat fill, interactive fill', () => {
  it.each(FIXTURES)('%s', async (name) => {
    const original = fixture(name);
    const template = await templateOf(original);
    // The unmutated file works in every mode.
    for (const mode of MODES) expect((await run(name, mode, original, template)).result).toBe('pdf');
    const rng: Rng = seededRandom(SEED + FIXTURES.indexOf(name) * 1000);
    const batch: Outcome[] = [];
    for (const [kind, mutate] of Object.entries(MUTATIONS)) {
      for (let i = 0; i < PER_KIND; i++) {
        const mutant = mutate(original, rng);
        for (const mode of MODES) batch.push(await run(`${name} ${kind}#${i} (seed ${SEED})`, mode, mutant, template));
      }
    }
    check(batch);
  });
});

describe('minimal structural cases', () => {
  it.each(Object.keys(MINIMAL_CASES))('%s: a PDF in every mode, its field read where it is readable', async (label) => {
    const pdf = MINIMAL_CASES[label]!;
    const template = {
      fields: [
        {
          id: 'b',
          alias: 'b',
          acroFieldName: 'b',
          type: 'shortText',
          pageNum: 0,
          rect: { x: 10, y: 10, width: 90, height: 20 },
        },
      ] as TemplateField[],
      data: { b: 'x' },
    };
    const batch: Outcome[] = [];
    for (const mode of MODES) batch.push(await run(label, mode, pdf, template));
    check(batch);
    // These files are readable apart from the broken entry, which is ignored as a viewer ignores it.
    expect(batch.map((o) => o.result)).toEqual(['pdf', 'pdf', 'pdf', 'pdf']);
  });

  it('the broken entry is dropped, the rest of the form kept', async () => {
    const imported = await templateFromPdf(MINIMAL_CASES['an annotation entry that is a number']!);
    expect(imported.fields.map((f) => f.acroFieldName)).toEqual(['b']);
    const doc = await loadPdf(MINIMAL_CASES['a field kid that is a number']!);
    expect(doc.getPageCount()).toBe(1);
  });
});

describe('slow inputs', () => {
  const cases = slowCases(fixture('qpdf_enc_rc4_128_owner_only_30p.pdf'));
  it.each(Object.keys(cases))('%s: a typed error in well under a second of CPU', async (label) => {
    const pdf = cases[label]!;
    const template = {
      fields: [
        { id: 'a', alias: 'a', type: 'shortText', pageNum: 0, rect: { x: 10, y: 10, width: 90, height: 20 } },
      ] as TemplateField[],
      data: { a: 'x' },
    };
    const batch: Outcome[] = [];
    for (const mode of MODES) batch.push(await run(label, mode, pdf, template));
    check(batch);
  });

  it('the huge /Length is refused as an unsupported encryption, the bomb as past the decode budget', async () => {
    const message = async (pdf: Uint8Array) =>
      await loadPdf(pdf).then(
        () => 'loaded',
        (e: Error) => e.message,
      );
    expect(await message(cases['an /Encrypt dictionary with /Length 1073741824']!)).toMatch(
      /unsupported encryption.*Length/,
    );
    expect(await message(cases['a 1 MB object stream that inflates to 1 GiB']!)).toMatch(/inflates past the limit/);
  });
});
