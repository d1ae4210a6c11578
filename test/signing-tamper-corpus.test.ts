/**
 * The tamper corpus (test/helpers/tamper-corpus.ts): byte flips, rewrites, transplanted and forged
 * signatures, changes after a signature (re-sealed or not, followed by a document timestamp or
 * not), certificates of another install, a revoked one, shadow attacks (hide, replace,
 * hide-and-replace, xref only) and incremental saving attacks (with a table, a stream, no
 * cross-reference section, freed entries, /Prev skipping or looping, /Root re-pointed), and the
 * legitimate documents that must stay valid (a pyHanko-style countersignature among them). Each
 * kind's verdict is in test/fixtures/tamper/verdicts.json: the document's validity, each listed
 * signature's, and a problem the report must name.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPdf, type VerifyResult } from '../src/signing/index.js';
import { runCastpress } from './helpers/cli.js';
import { mutoolVerify, pdfsig, tempDir, tool } from './helpers/signing.js';
import { CORPUS, createCorpusContext, type CorpusContext } from './helpers/tamper-corpus.js';

interface Verdict {
  valid: boolean;
  /** Each listed signature's `valid`, in the report's order. */
  signatures: boolean[];
  /** A pattern the document's or a signature's problems must match. */
  problem?: string;
}

const VERDICTS = JSON.parse(
  await readFile(new URL('./fixtures/tamper/verdicts.json', import.meta.url), 'utf8'),
) as Record<string, Verdict>;

let tmp: { dir: string; remove: () => Promise<void> };
let ctx: CorpusContext;
let root: string;
const built = new Map<string, Promise<Uint8Array>>();

const build = (kind: string): Promise<Uint8Array> => {
  let b = built.get(kind);
  if (!b) {
    b = Promise.resolve(CORPUS[kind]!(ctx));
    built.set(kind, b);
  }
  return b;
};

beforeAll(async () => {
  tmp = await tempDir('castpress-tamper-');
  ctx = await createCorpusContext(tmp.dir);
  root = await readFile(ctx.install.files!.rootCertificate, 'utf8');
}, 120_000);
afterAll(async () => tmp?.remove());

const problemsOf = (r: VerifyResult): string => [...r.problems, ...r.signatures.flatMap((s) => s.problems)].join('\n');

describe('the tamper corpus', { timeout: 120_000 }, () => {
  it('has a verdict for every kind, and at least 30 tampered kinds', () => {
    expect(Object.keys(VERDICTS).sort()).toEqual(Object.keys(CORPUS).sort());
    expect(Object.values(VERDICTS).filter((v) => !v.valid).length).toBeGreaterThanOrEqual(30);
  });

  for (const kind of Object.keys(CORPUS)) {
    it(kind, async () => {
      const verdict = VERDICTS[kind]!;
      const result = await verifyPdf(await build(kind), { trustAnchors: [root] });
      const summary = JSON.stringify(
        result.signatures.map((s) => [s.fieldName, s.valid, s.problems]),
        null,
        1,
      );
      expect(result.valid, summary).toBe(verdict.valid);
      expect(
        result.signatures.map((s) => s.valid),
        summary,
      ).toEqual(verdict.signatures);
      if (verdict.valid) expect(result.problems).toEqual([]);
      if (verdict.problem) expect(problemsOf(result)).toMatch(new RegExp(verdict.problem));
    });
  }
});

describe('independent validators and the command line', { timeout: 300_000 }, () => {
  it('pdfsig and mutool accept the signature of an xref-only shadow attack; verifyPdf and `castpress verify` do not', async () => {
    const file = path.join(tmp.dir, 'shadow.pdf');
    await writeFile(file, await build('shadow replace: the page content re-pointed (xref only)'));
    // The bytes the signature covers are intact: pdfsig says "Signature is Valid." (not total document),
    // mutool "The signature is valid but there have been edits since signing." (for any later update).
    const ps = await pdfsig(file);
    expect(ps.signatures.filter((s) => !s.text.includes('not signed')).map((s) => [s.valid, s.total])).toEqual([
      [true, false],
    ]);
    expect(await mutoolVerify(file)).toContain('there have been edits since signing');
    // What MuPDF shows now: the shadow text.
    const drawn = await tool('mutool', ['draw', '-F', 'txt', file]);
    const shown = drawn.stdout + drawn.stderr;
    expect(shown).toContain('Pay to Mallory: 9000 EUR');
    expect(shown).not.toContain('Pay to Alice');
    const r = await runCastpress(['verify', file, '--trust', ctx.install.files!.rootCertificate], tmp.dir);
    expect(r.code, r.stdout + r.stderr).toBe(1);
  });

  it('`castpress verify` exits 1 for objects appended without a cross-reference section, 0 for the pyHanko-style countersignature', async () => {
    const cases: Array<[string, number]> = [
      ['ISA: objects appended without a cross-reference section', 1],
      ['control: pyHanko-style countersignature (xref stream, /Version /Extensions /Metadata, /T re-encoded)', 0],
    ];
    for (const [kind, code] of cases) {
      const file = path.join(tmp.dir, `cli-${code}.pdf`);
      await writeFile(file, await build(kind));
      const r = await runCastpress(['verify', file, '--trust', ctx.install.files!.rootCertificate], tmp.dir);
      expect(r.code, `${kind}: ${r.stdout}${r.stderr}`).toBe(code);
    }
  });
});
