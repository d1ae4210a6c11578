/**
 * The PDF-heavy steps of the workflow behind one interface: assembling a packet,
 * drawing a signer's inputs, completing (certificate and seal). In a library they
 * run in-process (`inProcessWork`); the server hands them to worker threads with a
 * deadline (src/server/packet-work.ts), so its event loop never runs them.
 */
import type { Engine } from '../../engine/index.js';
import type { AppearanceWriter, SealOptions, SigningIdentity } from '../../signing/index.js';
import type { SignerInputs } from '../apply.js';
import type { AssembledPacket, OwnTemplate } from '../assembled.js';
import { createPacketAssembler, type PacketAssembler } from '../assembler.js';
import type { CompletionCertificate } from '../completion-certificate.js';
import type { MergedField, PlannedField } from '../plan.js';
import type { Signer } from '../request.js';
import type { SignatureMode } from '../signer-signature.js';
import { completeDocuments, prepareDocuments, signDocuments, type PrepareInfo } from './documents.js';

export type SignDocs = ReadonlyArray<{ pdf: Uint8Array; fields: ReadonlyArray<PlannedField | MergedField> }>;
export type CompleteDocs = ReadonlyArray<{ filename: string; assembled: Uint8Array; signed: Uint8Array }>;

/** Which packet and signer a per-signer signature is for (the identity is the work's own). */
export interface SignerSealInfo {
  packetEid: string;
  signerEid: string;
  /** Show who signed, when, and the certificate's fingerprint under the signer's signature marks. */
  details?: boolean;
}

export interface PacketWork {
  /**
   * createEtchPacket's body (or a stored one with a new payload) as documents and a plan; `templates`:
   * the template files whose template the workflow found in the organization's own store (own-templates.ts).
   */
  assemble(body: unknown, templates?: ReadonlyMap<number, OwnTemplate>): Promise<AssembledPacket>;
  /**
   * Per-signer mode, when the packet is sent (#31): every document's mark fields and the operator's
   * certification signature. Optional: without it the first signer's revision creates the fields.
   */
  prepare?(docs: SignDocs, info: PrepareInfo): Promise<Uint8Array[]>;
  /** One signer's inputs on every document holding one of their fields; with `seal`, signed by them (per-signer mode). */
  sign(docs: SignDocs, signer: Signer, inputs: SignerInputs, seal?: SignerSealInfo): Promise<Uint8Array[]>;
  /** Certificate of completion and seal on each document (per-signer mode: plus the certificate as one more PDF). */
  complete(
    docs: CompleteDocs,
    certificate: Omit<CompletionCertificate, 'documents'>,
    mode?: SignatureMode,
  ): Promise<Uint8Array[]>;
}

/**
 * The steps on the calling thread, with the caller's engine, identity and appearance writer.
 * `assembler`: the caller's (createPacketWorkflow passes the one it owns and closes); without
 * it one is made on first use with default DOCX options, and its converter is never closed.
 */
export function inProcessWork(
  engine: Engine,
  identity: SigningIdentity,
  writer: AppearanceWriter,
  assembler?: PacketAssembler,
  seal?: SealOptions,
): PacketWork {
  let own = assembler;
  return {
    assemble: (body, templates) =>
      (own ??= createPacketAssembler(engine)).assemble(body, templates ? { templates } : {}),
    // With a TSA, every signature carries a signature timestamp (B-T); completion adds the DSS and the document timestamp.
    prepare: (docs, info) => prepareDocuments(docs, identity, info, seal?.timestamp),
    sign: (docs, signer, inputs, signerSeal) =>
      signDocuments(
        docs,
        signer,
        inputs,
        writer,
        signerSeal ? { ...signerSeal, identity, ...(seal?.timestamp ? { timestamp: seal.timestamp } : {}) } : undefined,
      ),
    complete: (docs, certificate, mode) => completeDocuments(engine, identity, docs, certificate, mode, seal, writer),
  };
}
