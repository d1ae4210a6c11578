/**
 * The PDF side of the workflow: a packet's documents from its assembly, a signer's
 * inputs drawn onto the documents that hold their fields, and completion (certificate
 * and seal). Pure over bytes: the service stores what these return.
 */
import type { Engine } from '../../../engine/index.js';
import type { AppearanceWriter, SealOptions, SigningIdentity, TimestampOptions } from '../../../signing/index.js';
import { applySignerInputs, type SignerInputs } from '../../signatures/apply.js';
import type { AssembledPacket } from '../../assemble/assembled.js';
import { completeDocument, certificateDocument, sealCompletedDocument } from '../../signatures/complete.js';
import { sha256Of, type CompletionCertificate } from '../../signatures/completion-certificate.js';
import {
  prepareDocument,
  signAsSigner,
  type SignatureMode,
  type SignerSeal,
} from '../../signatures/signer-signature.js';
import type { MergedField, PlannedField } from '../../assemble/plan.js';
import type { Signer } from '../../request/request.js';
import type { DocumentField } from '../../store/index.js';
import { fileFields, mergedFields } from '../state/document-fields.js';

export interface DocumentDraft {
  fileId: string;
  filename: string;
  title: string | null;
  pageCount: number;
  pdf: Uint8Array;
  fields: DocumentField[];
}

/** The documents signers sign: the merged PDF, or each file. */
export function documentsOf(packet: AssembledPacket): DocumentDraft[] {
  if (packet.merged) {
    const m = packet.merged;
    return [
      {
        fileId: 'merged',
        filename: m.filename,
        title: packet.request.name,
        pageCount: m.pageCount,
        pdf: m.pdf,
        fields: mergedFields(m.fields),
      },
    ];
  }
  return packet.files.map((f) => ({
    fileId: f.id,
    filename: f.filename,
    title: f.title ?? null,
    pageCount: f.pageCount,
    pdf: f.pdf,
    fields: fileFields(f.fields),
  }));
}

/**
 * A signer's inputs on every document holding one of their fields; others are returned as they were.
 * With `seal` (per-signer signatures) each such document gets the signer's own signature too.
 */
export async function signDocuments(
  docs: ReadonlyArray<{ pdf: Uint8Array; fields: ReadonlyArray<PlannedField | MergedField> }>,
  signer: Signer,
  inputs: SignerInputs,
  writer: AppearanceWriter,
  seal?: SignerSeal,
): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (const doc of docs) {
    const mine = doc.fields.some((f) => f.signerId === signer.id);
    const options = { writer, signer, fields: doc.fields };
    out.push(
      !mine
        ? doc.pdf
        : seal
          ? await signAsSigner(doc.pdf, inputs, options, seal)
          : await applySignerInputs(doc.pdf, inputs, options),
    );
  }
  return out;
}

/** When a per-signer packet is sent: which packet, and whether the operator certifies (DocMDP P=2). */
export interface PrepareInfo {
  packetEid: string;
  certify: boolean;
  signingTime?: Date;
}

/**
 * Per-signer mode, when the packet is sent: every document's mark fields and the operator's
 * certification signature (`prepareDocument`); a document signed elsewhere that castpress would
 * break is a ValidationError naming it (`files[i]`: the i-th document, `files[0]` for a merged one).
 */
export async function prepareDocuments(
  docs: ReadonlyArray<{ pdf: Uint8Array; fields: ReadonlyArray<PlannedField | MergedField> }>,
  identity: SigningIdentity,
  info: PrepareInfo,
  timestamp?: TimestampOptions,
): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (const [i, doc] of docs.entries())
    out.push(
      await prepareDocument(doc.pdf, doc.fields, {
        identity,
        packetEid: info.packetEid,
        certify: info.certify,
        ...(info.signingTime ? { signingTime: info.signingTime } : {}),
        property: `files[${i}]`,
        ...(timestamp ? { timestamp } : {}),
      }),
    );
  return out;
}

/**
 * Certificate of completion and seal on each document, the certificate naming every document.
 * Per-signer mode: each document sealed as it is, and one more PDF at the end of the list,
 * the certificate of completion on its own, sealed.
 */
export async function completeDocuments(
  engine: Engine,
  identity: SigningIdentity,
  docs: ReadonlyArray<{ filename: string; assembled: Uint8Array; signed: Uint8Array }>,
  certificate: Omit<CompletionCertificate, 'documents'>,
  mode: SignatureMode = 'seal',
  seal?: SealOptions,
  /** Draws the signers' adopted marks on the certificate; default: one made for the call. */
  writer?: AppearanceWriter,
): Promise<Uint8Array[]> {
  const documents = docs.map((d) => ({
    name: d.filename,
    sha256Before: sha256Of(d.assembled),
    sha256After: sha256Of(d.signed),
  }));
  const options = {
    identity,
    certificate: { ...certificate, documents },
    ...(seal ? { seal } : {}),
    ...(writer ? { writer } : {}),
  };
  const out: Uint8Array[] = [];
  if (mode === 'per-signer') {
    for (const d of docs) out.push(await sealCompletedDocument(d.signed, options));
    out.push(await certificateDocument(engine, options));
    return out;
  }
  for (const d of docs) out.push(await completeDocument(engine, d.signed, options));
  return out;
}
