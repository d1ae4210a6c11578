/**
 * Per-signer signatures (#31, the default): everything one signer did on a document goes into
 * one signed revision. Their marks are the appearances of read-only form fields (push buttons
 * for signatures and initials, text fields with a value for dates, names, e-mails and values),
 * made for every signer's box in the document's first signed revision; the revision ends with
 * a PAdES signature by a certificate the operator's local CA issues for this signer. Later
 * signers only fill fields and sign, which DocMDP P=2 allows (see src/signing/README.md).
 */
import { dropUnsignedSignatureFields } from '../acroform/index.js';
import { appendFieldMarks, type MarkFieldSpec } from '../pdf/index.js';
import { canIssueSignerCertificates, issueSignerIdentity, sealPdf, type SigningIdentity } from '../signing/index.js';
import { fieldIdOf, signerMarks, type ApplySignerOptions, type SignerInputs } from './apply.js';
import type { MergedField, PlannedField } from './plan.js';

/** How signatures are made in a packet: one per signer as they finish (default), or one seal at completion. */
export type SignatureMode = 'per-signer' | 'seal';

/** Who signs a per-signer revision, for the certificate and the signature dictionary. */
export interface SignerSeal {
  /** The operator's identity: its local CA issues the signer's certificate (otherwise it signs itself). */
  identity: SigningIdentity;
  packetEid: string;
  signerEid: string;
}

/** The form field a planned box becomes (a prefix keeps it apart from src/acroform's /Sig placeholders of the same id). */
export function markFieldName(f: PlannedField | MergedField): string {
  return `mark_${fieldIdOf(f).replaceAll('.', '_')}`;
}

function pageOf(f: PlannedField | MergedField): number {
  return 'mergedPageNum' in f ? f.mergedPageNum : f.pageNum;
}

/** Every signer's box of the document as a field to create (once, before the first signature). */
function fieldSpecs(fields: ReadonlyArray<PlannedField | MergedField>): MarkFieldSpec[] {
  return fields
    .filter((f) => f.signerId !== undefined && f.signerId !== null)
    .map((f) => ({
      name: markFieldName(f),
      kind: f.type === 'signature' || f.type === 'initial' ? 'button' : 'text',
      pageIndex: pageOf(f),
      rect: f.rect,
    }));
}

/**
 * One signer's inputs set as field appearances and signed with their own certificate:
 * two updates (fields, signature) after `pdf`, which stays an exact prefix.
 */
export async function signAsSigner(
  pdf: Uint8Array,
  rawInputs: SignerInputs,
  options: ApplySignerOptions,
  seal: SignerSeal,
): Promise<Uint8Array> {
  const marks = signerMarks(rawInputs, options);
  const signingTime = rawInputs.signedAt ?? new Date();
  const appearances = marks.length > 0 ? await options.writer.appearancePages(marks.map((m) => m.mark)) : undefined;
  const filled = await appendFieldMarks(pdf, {
    create: fieldSpecs(options.fields),
    // The /Sig placeholders of assembly would stay unsigned (each signer signs a field of their own):
    // removed in the revision that creates the mark fields, before any signature.
    edit: (doc) => void dropUnsignedSignatureFields(doc),
    ...(appearances ? { appearances } : {}),
    set: marks.map((m, i) => ({
      name: markFieldName(m.field),
      appearancePage: i,
      ...(m.mark.input.type === 'text' ? { value: m.mark.input.text } : {}),
    })),
  });
  const { signer } = options;
  const name = signer.name ?? signer.email ?? signer.id;
  const identity = (await canIssueSignerCertificates(seal.identity))
    ? await issueSignerIdentity(seal.identity, {
        name,
        ...(signer.email ? { email: signer.email } : {}),
        now: signingTime,
      })
    : seal.identity;
  return sealPdf(filled, identity, {
    name,
    reason: `Signed by ${name}${signer.email ? ` <${signer.email}>` : ''} as signer ${seal.signerEid} of packet ${seal.packetEid}`,
    ...(signer.email ? { contactInfo: signer.email } : {}),
    signingTime,
  });
}
