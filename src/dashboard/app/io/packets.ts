/** The dashboard's packet routes (DASHBOARD-API.md "Packets") as typed calls, and what they answer. */
import { json } from './api.js';

export interface PacketSummary {
  eid: string;
  name: string;
  status: string;
  isTest: boolean;
  createdAt: string;
  completedAt: string | null;
}

export interface SignerEvent {
  type: 'sent' | 'viewed' | 'signed';
  at: string;
  ip: string | null;
  userAgent: string | null;
}

export interface PacketSigner {
  eid: string;
  aliasId: string;
  name: string | null;
  email: string | null;
  routingOrder: number;
  signerType: string;
  status: string;
  canResend: boolean;
  events: SignerEvent[];
}

export interface PacketDetail extends PacketSummary {
  updatedAt: string;
  documents: Array<{ index: number; filename: string; title: string | null; url: string }>;
  signers: PacketSigner[];
}

export interface PacketPage {
  packets: PacketSummary[];
  total: number;
  offset: number;
  limit: number;
}

/** Which packets the list shows: `test` all, only test packets, or only live ones. */
export interface PacketQuery {
  q: string;
  test: 'all' | 'true' | 'false';
  offset: number;
}

const P = '/dashboard/api/packets';
const one = (eid: string) => `${P}/${encodeURIComponent(eid)}`;

export const packetsApi = {
  list(query: PacketQuery): Promise<PacketPage> {
    const params = new URLSearchParams();
    if (query.q.trim()) params.set('q', query.q.trim());
    if (query.test !== 'all') params.set('test', query.test);
    if (query.offset) params.set('offset', String(query.offset));
    const qs = params.toString();
    return json<PacketPage>('GET', qs ? `${P}?${qs}` : P);
  },
  async packet(eid: string): Promise<PacketDetail> {
    return (await json<{ packet: PacketDetail }>('GET', one(eid))).packet;
  },
  resend: (eid: string, signerEid: string) =>
    json<{ signerEid: string; queued: boolean }>(
      'POST',
      `${one(eid)}/signers/${encodeURIComponent(signerEid)}/resend`,
      {},
    ),
};

/** A time as a person reads it (their locale, to the minute). */
export function when(isoTime: string): string {
  return new Date(isoTime).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export interface Delivery {
  id: string;
  packetEid: string;
  kind: 'webhook' | 'email';
  what: string;
  url: string | null;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  responseCode: number | null;
  lastError: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  canRetry: boolean;
}

export const deliveriesApi = {
  list: (kind: 'all' | 'webhook' | 'email', status: 'all' | 'pending' | 'delivered' | 'failed', offset: number) =>
    json<{ deliveries: Delivery[]; total: number; offset: number; limit: number }>(
      'GET',
      `/dashboard/api/deliveries?kind=${kind}&status=${status}&offset=${offset}`,
    ),
  retry: (d: Delivery) =>
    json<{ id: string; status: string }>(
      'POST',
      `${one(d.packetEid)}/deliveries/${encodeURIComponent(d.id)}/retry`,
      {},
    ),
};
