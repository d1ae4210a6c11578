/** Store records for unit tests of the workflow's pure parts: complete and plain, overridable field by field. */
import type { PacketRecord, SignerRecord, SignerStatus, StoredSigner } from '../../src/packets/index.js';

/** A parsed signer as the store keeps it: the request's defaults. */
export function storedSigner(id: string, extra: Partial<StoredSigner> = {}): StoredSigner {
  return {
    id,
    signerType: 'email',
    signatureMode: 'draw',
    signatureExperience: 'signWhileReviewing',
    routingOrder: 1,
    acceptEachField: true,
    enableEmails: true,
    fields: [],
    tokenValidForMinutes: 60,
    isPending: false,
    ...extra,
  };
}

/** A signer `eid` (also its alias) of packet `pkt`; an `email` signer has an address. */
export function signerRecord(
  eid: string,
  routingOrder: number,
  status: SignerStatus,
  extra: Partial<SignerRecord> = {},
): SignerRecord {
  const signerType = extra.signerType ?? 'email';
  return {
    eid,
    packetEid: 'pkt',
    aliasId: eid,
    index: 0,
    routingOrder,
    name: eid,
    email: signerType === 'email' ? `${eid}@example.test` : null,
    signerType,
    status,
    pending: false,
    signer: storedSigner(eid),
    inputsHash: null,
    clientUserId: null,
    sentAt: null,
    viewedAt: null,
    signedAt: null,
    ip: null,
    userAgent: null,
    ...extra,
  };
}

/** Packet `pkt` of group `grp`. */
export function packetRecord(status: PacketRecord['status'], extra: Partial<PacketRecord> = {}): PacketRecord {
  return {
    eid: 'pkt',
    groupEid: 'grp',
    organization: 'default',
    name: 'P',
    status,
    isTest: false,
    allowUpdates: false,
    mergePDFs: false,
    webhookURL: null,
    requestHash: '',
    payload: {},
    options: {},
    createdAt: 0,
    updatedAt: 0,
    completedAt: null,
    version: 0,
    ...extra,
  };
}
