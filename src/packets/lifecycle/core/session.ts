/**
 * What the signing page is given when a signer opens it, and the signer events (redirect query
 * parameters and iframe messages of the spec) as values. Pure.
 */
import { createHash } from 'node:crypto';
import type { DocumentField, DocumentRecord, SignerRecord, StoredSigner } from '../../store/index.js';
import { acceptsEachField, detailsRequired } from './acceptance.js';
import { fieldIdOf, fieldPageOf } from '../state/document-fields.js';
import { redirectGroupStatus } from '../state/routing.js';
import type { Snapshot } from './step.js';

/** Redirect query parameters and iframe message of the spec, as values. */
export interface SignerEvent {
  action: 'signerLoad' | 'signerSign' | 'signerComplete' | 'signerError';
  signerStatus?: string;
  signerEid: string;
  nextSignerEid?: string | null;
  documentGroupStatus?: 'completed' | 'partial' | 'sent';
  documentGroupEid?: string;
  etchPacketEid?: string;
  errorType?: string;
  error?: string;
  message?: string;
}

export interface SigningSession {
  /** `organization`: whose settings (framing, stylesheet origins, logo) apply to the page. */
  packet: {
    eid: string;
    name: string;
    status: string;
    isTest: boolean;
    organization: string;
    signaturePageOptions?: unknown;
  };
  signer: {
    eid: string;
    aliasId: string;
    name: string | null;
    email: string | null;
    status: string;
    signerType: string;
    options: StoredSigner;
  };
  documents: Array<{
    index: number;
    filename: string;
    title: string | null;
    pageCount: number;
    fields: DocumentField[];
  }>;
  /** The signer's fields as the page places them: document, page (0-based), rect (points from the page's top-left). */
  boxes: Array<{
    document: number;
    fieldId: string;
    type: string;
    page: number;
    rect: { x: number; y: number; width: number; height: number };
  }>;
  /** The signer clicks each signature/initials box (acceptEachField with signWhileReviewing). */
  acceptEachField: boolean;
  /** In person: the name the signer confirms before the documents are shown; null when none is asked (hand-over.ts). */
  handOver: { name: string } | null;
  /** Name/email still to be entered before the documents are shown (requireNameOnLoad / requireEmailOnLoad). */
  detailsRequired: { name: boolean; email: boolean };
  /** The signerLoad message (and redirect parameters) for this view. */
  event: SignerEvent;
  /** Where the browser goes after finishing, when the signer has one. */
  redirectURL?: string;
  /**
   * Which documents the page shows (documentsVersionOf): the page sends it back with the submission,
   * which is refused when the documents were made again since (a payload update, a newer template).
   */
  documentsVersion: string;
}

/**
 * The documents as assembled, in order: changes when they are made again (updateEtchPacket's
 * re-render, a by-reference packet following a newer template version), not when a signer signs
 * (signing changes `currentHash` only, and what others signed is not what a signer reviews).
 */
export function documentsVersionOf(documents: ReadonlyArray<Pick<DocumentRecord, 'assembledHash'>>): string {
  const hash = createHash('sha256');
  for (const d of documents) hash.update(`${d.assembledHash}\n`);
  return hash.digest('hex').slice(0, 32);
}

/** The signing page's view of the packet for signer `s`: their fields only. */
export function sessionOf(snap: Snapshot, s: SignerRecord): SigningSession {
  const theirs = (fields: readonly DocumentField[]) => fields.filter((f) => f.signerId === s.aliasId);
  return {
    documentsVersion: documentsVersionOf(snap.documents),
    packet: {
      eid: snap.packet.eid,
      name: snap.packet.name,
      status: snap.packet.status,
      isTest: snap.packet.isTest,
      organization: snap.packet.organization,
      signaturePageOptions: snap.packet.options.signaturePageOptions,
    },
    signer: {
      eid: s.eid,
      aliasId: s.aliasId,
      name: s.name,
      email: s.email,
      status: s.status,
      signerType: s.signerType,
      options: s.signer,
    },
    documents: snap.documents.map((d) => ({
      index: d.index,
      filename: d.filename,
      title: d.title,
      pageCount: d.pageCount,
      fields: theirs(d.fields),
    })),
    boxes: snap.documents.flatMap((d) =>
      theirs(d.fields).map((f) => ({
        document: d.index,
        fieldId: fieldIdOf(f),
        type: f.type,
        page: fieldPageOf(f),
        rect: f.rect,
      })),
    ),
    acceptEachField: acceptsEachField(s.signer),
    // Set by openSigning, which knows the token the page was opened with.
    handOver: null,
    detailsRequired: detailsRequired(s.signer),
    event: {
      action: 'signerLoad',
      signerStatus: s.status,
      signerEid: s.eid,
      documentGroupStatus: redirectGroupStatus(snap.packet.status),
      documentGroupEid: snap.packet.groupEid,
      etchPacketEid: snap.packet.eid,
    },
    ...(typeof s.signer.redirectURL === 'string' ? { redirectURL: s.signer.redirectURL } : {}),
  };
}
