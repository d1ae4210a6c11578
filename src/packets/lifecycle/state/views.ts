/**
 * The EtchPacket as the GraphQL operations return it (spec: Resources and their
 * fields), from the records. Times are ISO strings; `files` is a plain list (the
 * client selects it without sub-fields).
 */
import type { DocumentRecord, PacketRecord, SignerRecord, TokenRecord } from '../../store/index.js';
import { downloadUrl, downloadZipUrl } from './urls.js';

export interface SignerTokenView {
  eid: string;
  type: string;
  validUntil: string;
  valid: boolean;
  invalidatedAt: string | null;
  hasSigned: boolean;
  signedAt: string | null;
}

export interface SignerView {
  eid: string;
  aliasId: string;
  routingOrder: number;
  name: string | null;
  email: string | null;
  status: string;
  signerType: string;
  signActionType: string;
  signerTokens: SignerTokenView[];
}

export interface EtchPacketView {
  eid: string;
  name: string;
  status: string;
  isTest: boolean;
  allowUpdates: boolean;
  numberRemainingSigners: number;
  webhookURL: string | null;
  payload: PacketRecord['payload'];
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  archivedAt: null;
  /** What the server changed in the documents it was given (active content removed from uploads); empty when nothing. */
  warnings: string[];
  documentGroup: {
    eid: string;
    status: string;
    files: Array<{ name: string; type: string; filename: string; downloadURL: string }>;
    downloadZipURL: string;
    signers: SignerView[];
  };
}

const iso = (t: number | null): string | null => (t === null ? null : new Date(t).toISOString());

export function etchPacketView(
  packet: PacketRecord,
  signers: readonly SignerRecord[],
  documents: readonly DocumentRecord[],
  tokens: ReadonlyMap<string, readonly TokenRecord[]>,
  baseUrl: string,
  now: number,
): EtchPacketView {
  return {
    eid: packet.eid,
    name: packet.name,
    status: packet.status,
    isTest: packet.isTest,
    allowUpdates: packet.allowUpdates,
    numberRemainingSigners: signers.filter((s) => s.status !== 'completed' && s.status !== 'skipped').length,
    webhookURL: packet.webhookURL,
    payload: packet.payload,
    createdAt: iso(packet.createdAt)!,
    updatedAt: iso(packet.updatedAt)!,
    completedAt: iso(packet.completedAt),
    archivedAt: null,
    warnings: packet.options.warnings ?? [],
    documentGroup: {
      eid: packet.groupEid,
      status: packet.status,
      files: documents.map((d) => ({
        name: d.title ?? d.filename,
        type: 'pdf',
        filename: d.filename,
        downloadURL: downloadUrl(baseUrl, packet.groupEid, d.filename),
      })),
      downloadZipURL: downloadZipUrl(baseUrl, packet.groupEid),
      signers: signers.map((s) => ({
        eid: s.eid,
        aliasId: s.aliasId,
        routingOrder: s.routingOrder,
        name: s.name,
        email: s.email,
        status: s.status,
        signerType: s.signerType,
        signActionType: s.signerType,
        // Signing tokens only: a download token (etchComplete mail) signs nothing, so it is no SignerToken.
        signerTokens: (tokens.get(s.eid) ?? [])
          .filter((t) => t.type !== 'download')
          .map((t) => ({
            eid: t.eid,
            type: t.type,
            validUntil: iso(t.validUntil)!,
            valid: t.invalidatedAt === null && t.validUntil > now && t.signedAt === null,
            invalidatedAt: iso(t.invalidatedAt),
            hasSigned: t.signedAt !== null,
            signedAt: iso(t.signedAt),
          })),
      })),
    },
  };
}
