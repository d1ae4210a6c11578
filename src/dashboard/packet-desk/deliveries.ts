/**
 * The dashboard's delivery routes: the outbox events (webhooks and emails) of the organization's
 * packets with their status, attempts and the receiver's answer code to the last attempt (null for
 * mail, an attempt with no answer and events attempted before the store kept the code), and a retry
 * of a failed one.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError } from '../../errors/index.js';
import type { OutboxKind, OutboxRecord, OutboxStatus } from '../../packets/index.js';
import { PACKET_PAGE_SIZE, scopeOf, type PacketApiContext } from './routes.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function oneOf<T extends string>(raw: unknown, property: string, values: readonly T[]): T | undefined {
  if (raw === undefined || raw === '' || raw === 'all') return undefined;
  if (typeof raw === 'string' && (values as readonly string[]).includes(raw)) return raw as T;
  throw ValidationError.of(property, `Must be one of ${values.join(', ')} or all`);
}

export function deliveryView(e: OutboxRecord) {
  return {
    id: e.id,
    packetEid: e.packetEid,
    kind: e.kind,
    what: String(e.kind === 'webhook' ? e.payload.action : e.payload.mail),
    url: e.kind === 'webhook' && typeof e.payload.url === 'string' ? e.payload.url : null,
    status: e.status,
    attempts: e.attempts,
    responseCode: e.responseCode,
    lastError: e.lastError,
    createdAt: iso(e.createdAt),
    nextAttemptAt: e.status === 'pending' ? iso(e.nextAttemptAt) : null,
    deliveredAt: iso(e.deliveredAt),
    canRetry: e.status === 'failed' || (e.status === 'pending' && e.attempts > 0),
  };
}

type ListQuery = { Querystring: { kind?: string; status?: string; offset?: string } };

export function deliveryApi(api: FastifyInstance, ctx: PacketApiContext): void {
  const scope = (request: FastifyRequest) => scopeOf(ctx.sessionOf(request));

  api.get<ListQuery>('/deliveries', async (request) => {
    const kind = oneOf<OutboxKind>(request.query.kind, 'kind', ['webhook', 'email']);
    const status = oneOf<OutboxStatus>(request.query.status, 'status', ['pending', 'delivered', 'failed']);
    const raw = request.query.offset ?? '0';
    if (!/^\d{1,9}$/.test(raw)) throw ValidationError.of('offset', 'Must be a whole number');
    const desk = await ctx.packets();
    const s = scope(request);
    const { events, total } = await desk.store.outboxList({
      organization: s.organization,
      testOnly: s.testOnly,
      ...(kind ? { kind } : {}),
      ...(status ? { status } : {}),
      limit: PACKET_PAGE_SIZE,
      offset: Number(raw),
    });
    return { deliveries: events.map(deliveryView), total, offset: Number(raw), limit: PACKET_PAGE_SIZE };
  });

  api.post<{ Params: { eid: string; id: string } }>('/packets/:eid/deliveries/:id/retry', async (request) => {
    const desk = await ctx.packets();
    return desk.service.retryDelivery(request.params.eid, request.params.id, scope(request));
  });
}
