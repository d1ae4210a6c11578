/**
 * What the dashboard's packet routes answer: the store's records with ISO times. A signer's events
 * are what the store keeps of them: when the request was sent, each opening of the signing page
 * (time, IP, user agent, from the audit trail; the record's `viewedAt` alone when the trail has
 * none) and the signing (time, IP, user agent of the submit).
 */
import type { DocumentRecord, PacketListing, PacketRecord, SignerRecord } from '../../packets/index.js';

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export interface SignerEventView {
  type: 'sent' | 'viewed' | 'signed';
  at: string;
  ip: string | null;
  userAgent: string | null;
}

export function packetSummary(p: PacketListing) {
  return {
    eid: p.eid,
    name: p.name,
    status: p.status,
    isTest: p.isTest,
    createdAt: iso(p.createdAt),
    completedAt: isoOrNull(p.completedAt),
  };
}

export function signerEvents(s: SignerRecord): SignerEventView[] {
  const events: SignerEventView[] = [];
  if (s.sentAt !== null) events.push({ type: 'sent', at: iso(s.sentAt), ip: null, userAgent: null });
  const views = s.signer.audit?.views ?? [];
  for (const v of views)
    events.push({ type: 'viewed', at: iso(v.at), ip: v.ip ?? null, userAgent: v.userAgent ?? null });
  if (views.length === 0 && s.viewedAt !== null)
    events.push({ type: 'viewed', at: iso(s.viewedAt), ip: null, userAgent: null });
  if (s.signedAt !== null) events.push({ type: 'signed', at: iso(s.signedAt), ip: s.ip, userAgent: s.userAgent });
  return events;
}

/** Whose request may be sent again: an email signer whose turn it is in a packet that is out. */
function canResend(p: PacketRecord, s: SignerRecord): boolean {
  return (
    (p.status === 'sent' || p.status === 'partial') &&
    s.signerType === 'email' &&
    s.email !== null &&
    (s.status === 'sent' || s.status === 'viewed')
  );
}

export function packetDetail(p: PacketRecord, signers: readonly SignerRecord[], documents: readonly DocumentRecord[]) {
  return {
    ...packetSummary(p),
    updatedAt: iso(p.updatedAt),
    documents: documents.map((d) => ({
      index: d.index,
      filename: d.filename,
      title: d.title,
      url: `/dashboard/api/packets/${encodeURIComponent(p.eid)}/documents/${d.index}`,
    })),
    signers: [...signers]
      .sort((a, b) => a.routingOrder - b.routingOrder || a.index - b.index)
      .map((s) => ({
        eid: s.eid,
        aliasId: s.aliasId,
        name: s.name,
        email: s.email,
        routingOrder: s.routingOrder,
        signerType: s.signerType,
        status: s.status,
        canResend: canResend(p, s),
        events: signerEvents(s),
      })),
  };
}
