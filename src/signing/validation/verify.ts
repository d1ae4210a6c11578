/**
 * verifyPdf: every signature of a document, checked the way a relying party checks it, and the
 * report of why each is or is not valid. The checks live by concern: finding signatures in the
 * bytes (verify-find.ts), integrity of the CMS (verify-cms.ts), trust in the chain
 * (verify-trust.ts), and what a certificate allows and when (certificates.ts).
 *
 * A signature is valid when four checks hold, each reported on its own: integrity (the covered
 * bytes, the CMS signature, its container and timestamp), trust (a chain to one of the caller's
 * anchors), the signer certificate's validity period at the signing time, and its key usage.
 * Field names, reasons and locations come from the parsed form when the file can still be parsed.
 */
import { X509Certificate } from 'node:crypto';
import { z } from 'zod';
import { InvalidPdfError, ValidationError } from '../../errors/index.js';
import { readSignatureRecords, type SignatureDictionaryInfo } from '../../pdf/index.js';
import { parseWith } from '../../schema/index.js';
import { findRawSignatures, type RawSignature } from './find.js';
import type { Base, Checked, VerifyOptions, VerifyResult } from './report.js';
import { REWRITTEN, analyse, closedByValidationData, malformedSignatures, rewrittenSignatures } from './revisions.js';
import { NO_TRUST_ANCHOR, anchorsFrom } from './trust.js';
import type { ProofOfExistence } from './time.js';
import { failed, verifyOne, type Context } from './signature.js';

export type { ChangeLevel, ModificationReport, ObjectChange, RevisionReport } from './diff/analysis.js';
export type { TimestampReport } from '../cms/integrity.js';
// The report's types are named once, by verify-report.ts (imported above for the checks).
export type * from './report.js';
export type { ChainReport, TrustReport } from './trust.js';

const verifySchema = z.strictObject({
  trustAnchors: z.array(z.union([z.string().min(1), z.instanceof(Uint8Array)])).optional(),
  at: z
    .date()
    .refine((d) => !Number.isNaN(d.getTime()), 'Invalid date')
    .optional(),
  requireRevocation: z.boolean().optional(),
});

function baseOf(file: Buffer, raw: RawSignature, index: number, dict: SignatureDictionaryInfo | undefined): Base {
  const [a, b, c, d] = raw.byteRange as [number, number, number, number];
  return {
    index,
    kind: dict?.type === 'DocTimeStamp' ? 'documentTimestamp' : 'signature',
    ...(dict ? { fieldName: dict.fieldName } : {}),
    ...(dict?.reason !== undefined ? { reason: dict.reason } : {}),
    ...(dict?.location !== undefined ? { location: dict.location } : {}),
    ...(dict?.subFilter !== undefined ? { subFilter: dict.subFilter } : {}),
    byteRange: raw.byteRange,
    coveredRanges: [
      [a, a + b],
      [c, c + d],
    ],
    coversWholeDocument: a === 0 && c + d === file.length,
  };
}

/**
 * Every signature of `bytes`, checked against `trustAnchors`; a document without signatures, or
 * verified without trust anchors, gives an invalid result whose `problems` say why.
 */
export async function verifyPdf(bytes: Uint8Array, options: VerifyOptions = {}): Promise<VerifyResult> {
  if (!(bytes instanceof Uint8Array)) throw ValidationError.of('pdf', 'Expected the PDF as bytes (Uint8Array)');
  const opts = parseWith(verifySchema, options);
  const anchors = anchorsFrom(opts.trustAnchors ?? []);
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (file.indexOf('%PDF-') === -1 || file.indexOf('%PDF-') > 1024)
    throw new InvalidPdfError('Not a PDF (no %PDF- header)');
  const { dictionaries: dicts, dss } = await readSignatureRecords(bytes);
  const dssCertificates = dss.certificates.flatMap((der) => {
    try {
      return [new X509Certificate(der)];
    } catch {
      return [];
    }
  });
  const raws = findRawSignatures(file);
  const rewritten = rewrittenSignatures(dicts, raws);
  const all = [...raws, ...rewritten];
  const dictOf = (raw: RawSignature) =>
    dicts.find((d) => d.byteRange.length === 4 && d.byteRange.every((n, k) => n === raw.byteRange[k]));
  // Each signature checked once: a document timestamp may be asked for early, as a proof for one before it.
  const done = new Map<RawSignature, Checked>();
  const once = (raw: RawSignature, base: Base): Checked => {
    let sig = done.get(raw);
    if (!sig) done.set(raw, (sig = verifyOne(ctx, raw, base, dictOf(raw))));
    return sig;
  };
  let proofs: ProofOfExistence[] | undefined;
  const ctx: Context = {
    file,
    anchors,
    at: opts.at,
    now: new Date(),
    dssCrls: dss.crls,
    dssCertificates,
    requireRevocation: opts.requireRevocation ?? false,
    proofs: () =>
      (proofs ??= raws.flatMap((raw, i) => {
        const base = baseOf(file, raw, i, dictOf(raw));
        if (base.kind !== 'documentTimestamp') return [];
        try {
          const stamp = once(raw, base);
          return stamp.valid && stamp.signingTime ? [{ end: base.coveredRanges[1]![1], time: stamp.signingTime }] : [];
        } catch {
          return [];
        }
      })),
  };
  const checked = all.map((raw, i) => {
    const dict = dictOf(raw);
    const base = baseOf(file, raw, i, dict);
    if (rewritten.includes(raw)) base.coversWholeDocument = false;
    try {
      const sig = rewritten.includes(raw) ? verifyOne(ctx, raw, base, dict) : once(raw, base);
      if (!rewritten.includes(raw)) return sig;
      return {
        ...sig,
        valid: false,
        integrity: { intact: false, reason: REWRITTEN },
        problems: [REWRITTEN, ...sig.problems],
      };
    } catch (e) {
      // Hostile CMS content must not crash verification: report the signature as unreadable.
      return failed(ctx, { ...base, kind: 'signature' }, [`Cannot check the signature: ${(e as Error).message}`]);
    }
  });
  for (const { dict, defect } of malformedSignatures(dicts, raws)) {
    const base: Base = {
      index: checked.length,
      kind: dict.type === 'DocTimeStamp' ? 'documentTimestamp' : 'signature',
      fieldName: dict.fieldName,
      byteRange: dict.byteRange,
      coveredRanges: [
        [0, 0],
        [0, 0],
      ],
      coversWholeDocument: false,
    };
    checked.push(failed(ctx, base, [`Malformed signature: ${defect}`]));
  }
  const signatures = await analyse(file, checked, (sig) => rewritten.some((r) => r.byteRange === sig.byteRange));
  const last = signatures.at(-1);
  const wholeDocumentSigned = !!last && last.coversWholeDocument;
  const onlyValidationDataAfter = closedByValidationData(signatures, file.length);
  const problems: string[] = [];
  if (signatures.length === 0) problems.push('The document has no signatures');
  else {
    if (anchors.length === 0) problems.push(NO_TRUST_ANCHOR);
    const invalid = signatures.filter((s) => !s.valid).map((s) => s.fieldName ?? `#${s.index}`);
    if (invalid.length) problems.push(`Not valid: ${invalid.join(', ')}`);
    if (!onlyValidationDataAfter)
      problems.push(
        wholeDocumentSigned
          ? 'Changes other than long-term validation data follow the last signature (a document timestamp grants no permission)'
          : 'The last signature does not cover the whole document',
      );
  }
  return {
    signatures,
    valid: signatures.length > 0 && signatures.every((s) => s.valid) && onlyValidationDataAfter,
    wholeDocumentSigned,
    problems,
  };
}
