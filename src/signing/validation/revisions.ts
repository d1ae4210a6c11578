/** verifyPdf after the checks: signatures a rewrite left behind, the difference analysis of later revisions, the PAdES level. */
import { type SignatureDictionaryInfo } from '../../pdf/index.js';
import { RevisionReader, analyseModifications, docMdpOf, type ModificationReport } from './diff/analysis.js';
import { signatureDefect, type RawSignature } from './find.js';
import type { Checked, PadesLevel, VerifiedSignature } from './report.js';
import { hasFreshRevocation } from './ltv.js';

export const REWRITTEN =
  "The file was rewritten after signing (e.g. by qpdf): the signature's byte range no longer frames its value, so it covers nothing of this file";

/**
 * Signatures the parsed form lists but the raw scan did not find at their byte range: the file was
 * rewritten (objects moved or compressed), so the signature is listed, and says it no longer covers it.
 */
export function rewrittenSignatures(dicts: SignatureDictionaryInfo[], raws: RawSignature[]): RawSignature[] {
  const found = new Set(raws.map((r) => r.byteRange.join(' ')));
  return dicts
    .filter((d) => signatureDefect(d) === undefined && !found.has(d.byteRange.join(' ')))
    .map((d) => ({ byteRange: d.byteRange, cms: d.contents!, gap: {} }));
}

/** Signature fields the form lists whose dictionary is malformed (the raw scan cannot find them), each with its defect. */
export function malformedSignatures(
  dicts: SignatureDictionaryInfo[],
  raws: RawSignature[],
): Array<{ dict: SignatureDictionaryInfo; defect: string }> {
  const found = new Set(raws.map((r) => r.byteRange.join(' ')));
  return dicts.flatMap((dict) => {
    const defect = signatureDefect(dict);
    return defect === undefined || found.has(dict.byteRange.join(' ')) ? [] : [{ dict, defect }];
  });
}

const NOT_ANALYSED = 'Not analysed: the signature cannot be read or no longer frames a revision of this file';

/** Each signature's difference analysis and PAdES level; `valid` then also needs the analysis to hold. */
export async function analyse(
  file: Buffer,
  checked: Checked[],
  isRewritten: (sig: Checked) => boolean,
): Promise<VerifiedSignature[]> {
  const reader = new RevisionReader(file);
  // Revisions a signature (not a document timestamp) closes: a read-only field filled there is the signer's own.
  const signerRevisions = new Set(
    checked.filter((s) => s.kind === 'signature' && s.integrity.intact).map((s) => s.coveredRanges[1]![1]),
  );
  // The same signed revision (many /ByteRange entries can name one) is analysed once.
  const reports = new Map<string, Promise<ModificationReport>>();
  let governing: 1 | 2 | 3 | undefined;
  const out: VerifiedSignature[] = [];
  for (const sig of checked) {
    const end = sig.coveredRanges[1]![1];
    let modifications: ModificationReport;
    if (sig.signer === null || isRewritten(sig) || end > file.length) {
      modifications = {
        ok: false,
        allowed: 'formFillingAndSigning',
        certification: false,
        revisions: [],
        reason: NOT_ANALYSED,
      };
    } else {
      const graph = await reader.graph(end);
      let own: 1 | 2 | 3 | undefined;
      try {
        own = sig.kind === 'signature' ? docMdpOf(graph, sig.byteRange) : undefined;
      } catch {
        own = undefined; // an unreadable /Reference certifies nothing
      }
      governing ??= own;
      const key = `${end} ${governing} ${own}`;
      let report = reports.get(key);
      if (!report) {
        report = analyseModifications(reader, end, governing, own !== undefined, signerRevisions);
        reports.set(key, report);
      }
      modifications = await report;
    }
    const counted = modifications.reason !== undefined && modifications.reason !== NOT_ANALYSED;
    out.push({
      ...sig,
      modifications,
      valid: sig.valid && modifications.ok,
      problems: counted ? [...sig.problems, modifications.reason!] : sig.problems,
    });
  }
  return out.map((sig, i) => {
    const level = padesLevelOf(sig, out.slice(i + 1));
    return level ? { ...sig, padesLevel: level } : sig;
  });
}

function padesLevelOf(sig: VerifiedSignature, later: VerifiedSignature[]): PadesLevel | undefined {
  if (
    sig.kind !== 'signature' ||
    sig.subFilter !== 'ETSI.CAdES.detached' ||
    !sig.signingCertificateV2 ||
    !sig.integrity.intact
  )
    return undefined;
  if (!sig.timestamp) return 'B-B';
  const dssAt = sig.modifications.revisions.find((r) => r.changes.some((c) => c.what === 'DSS'))?.end;
  // B-LT: a DSS after it whose revocation data for the signer was gathered after the signature (verify-ltv.ts).
  if (dssAt === undefined || !hasFreshRevocation(sig)) return 'B-T';
  const archived = later.some(
    (s) => s.kind === 'documentTimestamp' && s.integrity.intact && s.coveredRanges[1]![1] >= dssAt,
  );
  return archived ? 'B-LTA' : 'B-LT';
}

/**
 * The last signature (not a document timestamp) covers the whole file, or what follows it is
 * long-term validation data only: each later revision brings a DSS or a document timestamp and
 * nothing else (bytes that change nothing are no such data). A document timestamp adds time,
 * never permission, whatever timestamp closes the file.
 */
export function closedByValidationData(signatures: VerifiedSignature[], fileLength: number): boolean {
  const last = signatures.findLast((s) => s.kind === 'signature') ?? signatures.at(-1);
  if (!last) return false;
  if (last.coversWholeDocument) return true;
  const { reason, revisions } = last.modifications;
  return (
    reason === undefined &&
    revisions.length > 0 &&
    revisions.every((r) => r.changes.length > 0 && r.changes.every((c) => c.ltv)) &&
    revisions.at(-1)!.end === fileLength
  );
}
