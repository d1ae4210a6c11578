import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ValidationError } from '../errors/index.js';
import { verifyPdf, type VerifiedSignature, type VerifyResult } from '../signing/index.js';
import { argumentProblem, printUsage, reportError } from './output.js';
import { VERIFY_USAGE } from './usage.js';

const LEVEL_WORDS = {
  none: 'no changes',
  formFillingAndSigning: 'form filling and signing',
  annotations: 'annotations',
  other: 'other changes',
} as const;

function yes(ok: boolean, reason: string | undefined, good = 'ok'): string {
  return ok ? good : `NO: ${reason ?? 'failed'}`;
}

function describeSignature(s: VerifiedSignature): string[] {
  const name = s.fieldName ? `"${s.fieldName}"` : '(not in a form field of the parsed file)';
  const lines = [
    `${s.kind === 'documentTimestamp' ? 'Document timestamp' : 'Signature'} ${s.index + 1} ${name}: ${s.valid ? 'VALID' : 'NOT VALID'}`,
  ];
  const add = (label: string, text: string) => lines.push(`  ${label.padEnd(19)}${text}`);
  add('signer', s.signer ? s.signer.subject : 'unknown');
  if (s.signer) add('issuer', s.signer.issuer);
  if (s.kind === 'signature')
    add('signing time', s.signingTime ? `${s.signingTime.toISOString()} (claimed by the signer)` : 'none claimed');
  add('checked at', `${s.validityPeriod.time.toISOString()} (${s.validityPeriod.timeSource})`);
  add('integrity', yes(s.integrity.intact, s.integrity.reason, 'intact'));
  add('trust', yes(s.trust.trusted, s.trust.reason, `trusted${s.trust.anchor ? ` (anchor ${s.trust.anchor})` : ''}`));
  add('validity period', yes(s.validityPeriod.ok, s.validityPeriod.reason));
  add('key usage', yes(s.keyUsage.ok, s.keyUsage.reason));
  if (s.kind === 'signature') add('PAdES level', s.padesLevel ?? 'not a PAdES baseline signature');
  if (s.revocation)
    add('revocation', `${s.revocation.status}${s.revocation.reason ? ` (${s.revocation.reason})` : ''}`);
  add('covers', s.coversWholeDocument ? 'the whole file' : `bytes up to ${s.coveredRanges[1]![1]} of the file`);
  const m = s.modifications;
  const policy =
    m.docMdp !== undefined
      ? `DocMDP P=${m.docMdp}${m.certification ? ', certification signature' : ''}`
      : 'approval signature';
  add(
    'changes after it',
    `${m.revisions.length === 0 ? 'none' : `${m.revisions.length} revision(s)`}; allowed: ${LEVEL_WORDS[m.allowed]} (${policy})`,
  );
  for (const r of m.revisions) {
    const objects = r.changes.map((c) => `${c.object} ${c.what}`);
    lines.push(
      `    revision ending at byte ${r.end}: ${LEVEL_WORDS[r.classification]}${objects.length ? ` — ${objects.slice(0, 8).join('; ')}${objects.length > 8 ? `; and ${objects.length - 8} more` : ''}` : ''}`,
    );
  }
  if (!m.ok && m.reason) add('difference check', `NO: ${m.reason}`);
  return lines;
}

function describe(file: string, result: VerifyResult): string {
  const lines = [
    `${file}: ${result.valid ? 'VALID' : 'NOT VALID'} (${result.signatures.length} signature${result.signatures.length === 1 ? '' : 's'})`,
  ];
  for (const s of result.signatures) lines.push('', ...describeSignature(s));
  if (result.problems.length) lines.push('', 'Problems:', ...result.problems.map((p) => `  - ${p}`));
  return lines.join('\n');
}

export async function verifyCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      trust: { type: 'string', multiple: true },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const problem = argumentProblem('verify', ['FILE.pdf'], positionals);
  if (values.help || problem) return printUsage(VERIFY_USAGE, values.help === true, problem);
  const file = positionals[0]!;
  try {
    const read = async (name: string, property: string): Promise<Buffer> => {
      try {
        return await readFile(name);
      } catch {
        throw ValidationError.of(property, `${name}: no such file or not readable`);
      }
    };
    const bytes = new Uint8Array(await read(file, file));
    const trustAnchors = await Promise.all(
      (values.trust ?? []).map(async (t) => {
        const data = await read(t, '--trust');
        return data.includes('-----BEGIN') ? data.toString('latin1') : new Uint8Array(data); // PEM, else DER
      }),
    );
    const result = await verifyPdf(bytes, { trustAnchors });
    console.log(values.json ? JSON.stringify(result, null, 2) : describe(file, result));
    return result.valid ? 0 : 1;
  } catch (e) {
    return reportError(e);
  }
}
