/**
 * Per-signer signatures (the workflow's default): everything one signer did on a document goes into
 * one signed revision. Their marks are the appearances of read-only form fields (push buttons
 * for signatures and initials, text fields with a value for dates, names, e-mails and values),
 * made for every signer's box in the document's first signed revision; the revision ends with
 * a PAdES signature by a certificate the operator's local CA issues for this signer. Later
 * signers only fill fields and sign, which DocMDP P=2 allows (see src/signing/README.md).
 */
import { createHash } from 'node:crypto';
import { dropUnsignedSignatureFields } from '../../acroform/index.js';
import { ValidationError } from '../../errors/index.js';
import { appendFieldMarks, readSignatureRecords, type FieldMarksUpdate, type MarkFieldSpec } from '../../pdf/index.js';
import {
  sealPdf,
  sealRevision,
  signerIdentityFor,
  verifyPdf,
  type SignerCertificateIssuer,
  type SigningIdentity,
  type TimestampOptions,
} from '../../signing/index.js';
import { fieldIdOf, signerMarks, type ApplySignerOptions, type SignerInputs } from './apply.js';
import type { MergedField, PlannedField } from '../assemble/plan.js';

/** How signatures are made in a packet: one per signer as they finish (default), or one seal at completion. */
export type SignatureMode = 'per-signer' | 'seal';

/** Who signs a per-signer revision, for the certificate and the signature dictionary. */
export interface SignerSeal {
  /** The operator's identity: its local CA issues the signer's certificate (otherwise it signs itself). */
  identity: SigningIdentity;
  packetEid: string;
  signerEid: string;
  /**
   * The operator's local CA kept open by the caller (`SignerCertificateIssuer.open(identity)`), so
   * a signature does not read and import the CA again; without it one is opened for the call.
   */
  issuer?: SignerCertificateIssuer;
  /** A signature timestamp for the signer's signature (PAdES B-T), when the operator configured a TSA. */
  timestamp?: TimestampOptions;
  /** A visible signature: the signature marks show who signed, when, and the certificate's fingerprint (`signatureCaption`). */
  details?: boolean;
}

/** The form field a planned box becomes (a prefix keeps it apart from src/acroform's /Sig placeholders of the same id). */
function markFieldName(f: PlannedField | MergedField): string {
  return `mark_${fieldIdOf(f).replaceAll('.', '_')}`;
}

function pageOf(f: PlannedField | MergedField): number {
  return 'mergedPageNum' in f ? f.mergedPageNum : f.pageNum;
}

const signersFields = (fields: ReadonlyArray<PlannedField | MergedField>) =>
  fields.filter((f) => f.signerId !== undefined && f.signerId !== null);

/**
 * Every signer's box of the document as a field to create (once, before the first signature).
 * `signedElsewhere`: the document already carries a signature, which allows new signature fields
 * only, so every box (texts too) becomes an unsigned signature field showing its mark.
 */
function fieldSpecs(fields: ReadonlyArray<PlannedField | MergedField>, signedElsewhere = false): MarkFieldSpec[] {
  return signersFields(fields).map((f) => ({
    name: markFieldName(f),
    kind: signedElsewhere ? 'signature' : f.type === 'signature' || f.type === 'initial' ? 'button' : 'text',
    pageIndex: pageOf(f),
    rect: f.rect,
  }));
}

/** The certification signature's field name and, with the local CA, its certificate's CN (the O/OU name the install). */
const CERTIFIER = 'castpress certification';

/** What `prepareDocument` needs: who certifies, and whether to. */
export interface PrepareOptions {
  /** The operator's identity: it signs the certification signature. */
  identity: SigningIdentity;
  packetEid: string;
  /** Write the certification signature (DocMDP P=2); default true. Documents signed elsewhere are never certified. */
  certify?: boolean;
  signingTime?: Date;
  /** Names the document in a refusal (e.g. `files[1]`). */
  property?: string;
  /** A signature timestamp for the certification (B-T), when the operator configured a TSA. */
  timestamp?: TimestampOptions;
}

/**
 * The revision a document gets when its packet is sent (per-signer mode): every signer's mark
 * field is created (the /Sig placeholders of assembly dropped), then the operator's certification
 * signature with DocMDP P=2 — so every signer's revision after it is form filling and signing. A
 * document that already carries a signature from elsewhere cannot be certified (only a first
 * signature certifies): it gets the mark fields as unsigned signature fields, which its signature
 * allows; when that signature would still not hold (e.g. its own certification allows no change),
 * it is a ValidationError naming the document and nothing is stored.
 */
export async function prepareDocument(
  pdf: Uint8Array,
  fields: ReadonlyArray<PlannedField | MergedField>,
  options: PrepareOptions,
): Promise<Uint8Array> {
  const signedElsewhere = (await readSignatureRecords(pdf)).dictionaries.some((d) => d.byteRange.length === 4);
  // The placeholders of assembly by name: a document signed elsewhere keeps its own empty fields.
  const placeholders = new Set(signersFields(fields).map((f) => fieldIdOf(f).replaceAll('.', '_')));
  const prepared = await appendFieldMarks(pdf, {
    create: fieldSpecs(fields, signedElsewhere),
    edit: (doc) => void dropUnsignedSignatureFields(doc, signedElsewhere ? placeholders : undefined),
  });
  if (signedElsewhere) {
    await checkSignaturesHold(prepared, options.property ?? 'files');
    return prepared;
  }
  if (options.certify === false) return prepared;
  const signingTime = options.signingTime ?? new Date();
  // A certificate of its own, as for each signer, when the local CA can issue one: with the
  // operator's own certificate both first and last (the final seal), pdfsig's NSS reported the
  // seal's certificate as "Unknown issue" once a signer's certificate came between the two.
  const identity = await signerIdentityFor(options.identity, { name: CERTIFIER, now: signingTime });
  return sealPdf(prepared, identity, {
    certify: 2,
    name: CERTIFIER,
    reason: `Certified for packet ${options.packetEid}: form filling and signing allowed`,
    signingTime,
    // B-T only: the DSS and the document timestamp come once, at completion, after every signature.
    ...(options.timestamp ? { timestamp: options.timestamp, level: 'B-T' as const } : {}),
  });
}

/** Every signature a document came with still verifies and allows what castpress changed (trust aside). */
async function checkSignaturesHold(pdf: Uint8Array, property: string): Promise<void> {
  const report = await verifyPdf(pdf);
  const broken = report.signatures.find((s) => !s.integrity.intact || !s.modifications.ok);
  if (broken)
    throw ValidationError.of(
      property,
      `The document carries a signature that signing it here would break (${
        broken.modifications.reason ?? broken.problems.join('; ')
      }); have it signed after castpress's signers, or upload it unsigned`,
    );
}

/**
 * The lines a visible signature shows under the signer's mark: who signed, when (the signature's
 * /M, UTC) and the SHA-256 of the certificate the signature is made with (as the certificate of
 * completion lists it), so a reader can match the box with the signature a validator shows.
 */
function signatureCaption(name: string, signingTime: Date, certificate: Uint8Array): string[] {
  const when = `${signingTime.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  const sha256 = createHash('sha256').update(certificate).digest('hex');
  return [`Digitally signed by ${name}`, `Date: ${when}`, `SHA-256 ${sha256}`];
}

/**
 * One signer's inputs set as field appearances and signed with their own certificate: one
 * update (marks and signature, from one parse of `pdf`) after `pdf`, which stays an exact prefix.
 */
export async function signAsSigner(
  pdf: Uint8Array,
  rawInputs: SignerInputs,
  options: ApplySignerOptions,
  seal: SignerSeal,
): Promise<Uint8Array> {
  const marks = signerMarks(rawInputs, options);
  const signingTime = rawInputs.signedAt ?? new Date();
  const { signer } = options;
  const name = signer.name ?? signer.email ?? signer.id;
  const subject = { name, ...(signer.email ? { email: signer.email } : {}), now: signingTime };
  // Issued first: a visible signature names the certificate the signature is made with.
  const identity = seal.issuer ? await seal.issuer.issue(subject) : await signerIdentityFor(seal.identity, subject);
  const caption = seal.details ? signatureCaption(name, signingTime, identity.certificate) : undefined;
  const drawn = marks.map((m) => (caption && m.mark.role === 'signature' ? { ...m.mark, caption } : m.mark));
  const appearances = drawn.length > 0 ? await options.writer.appearancePages(drawn) : undefined;
  const fieldMarks: FieldMarksUpdate = {
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
  };
  return sealRevision(pdf, identity, {
    marks: fieldMarks,
    name,
    reason: `Signed by ${name}${signer.email ? ` <${signer.email}>` : ''} as signer ${seal.signerEid} of packet ${seal.packetEid}`,
    ...(signer.email ? { contactInfo: signer.email } : {}),
    ...(seal.timestamp ? { timestamp: seal.timestamp } : {}),
    signingTime,
  });
}
