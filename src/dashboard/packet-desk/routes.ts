/**
 * The dashboard's packet routes (DASHBOARD-API.md, "Packets"): the organization's packets, a packet's
 * signers and their events, its documents and resending a signer's request. Scoped as the API is: a
 * development key sees its organization's test packets only, and a packet outside the scope is a 404.
 * Voiding is not offered: the specification has no voided state and the packet service no such step.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFoundError, ValidationError } from '../../errors/index.js';
import { visibleTo, type PacketScope, type PacketService, type PacketStore } from '../../packets/index.js';
import type { Session } from '../sessions/index.js';
import { packetDetail, packetSummary } from './views.js';

export interface PacketDesk {
  service: PacketService;
  store: PacketStore;
}

export interface PacketApiContext {
  packets: () => Promise<PacketDesk>;
  sessionOf: (request: FastifyRequest) => Session;
}

/** A page of the list. */
export const PACKET_PAGE_SIZE = 25;
const MAX_PAGE_SIZE = 100;

export function scopeOf(session: Session): PacketScope {
  return { organization: session.key.organization, testOnly: session.key.kind === 'development' };
}

function intOf(raw: unknown, property: string, fallback: number, max: number, min = 0): number {
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw ValidationError.of(property, `Must be an integer from ${min} to ${max}`);
  return Number(raw);
}

function testFilter(raw: unknown, scope: PacketScope): boolean | undefined {
  if (scope.testOnly) return true;
  if (raw === undefined || raw === '' || raw === 'all') return undefined;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw ValidationError.of('test', 'Must be "true", "false" or "all"');
}

type ListQuery = { Querystring: { q?: string; test?: string; offset?: string; limit?: string } };
type EidParams = { Params: { eid: string } };

export function packetApi(api: FastifyInstance, ctx: PacketApiContext): void {
  const scope = (request: FastifyRequest) => scopeOf(ctx.sessionOf(request));

  const packetOf = async (desk: PacketDesk, eid: string, s: PacketScope) => {
    const packet = await desk.store.packet(eid);
    if (!packet || !visibleTo(packet, s)) throw new NotFoundError(`No packet "${eid}"`, 'eid');
    return packet;
  };

  api.get<ListQuery>('/packets', async (request) => {
    const s = scope(request);
    const q = typeof request.query.q === 'string' ? request.query.q.trim().slice(0, 200) : '';
    const limit = intOf(request.query.limit, 'limit', PACKET_PAGE_SIZE, MAX_PAGE_SIZE, 1);
    const offset = intOf(request.query.offset, 'offset', 0, 1_000_000_000);
    const isTest = testFilter(request.query.test, s);
    const desk = await ctx.packets();
    const { packets, total } = await desk.store.packetList({
      organization: s.organization,
      ...(q ? { q } : {}),
      ...(isTest !== undefined ? { isTest } : {}),
      limit,
      offset,
    });
    return { packets: packets.map(packetSummary), total, offset, limit };
  });

  api.get<EidParams>('/packets/:eid', async (request) => {
    const desk = await ctx.packets();
    const packet = await packetOf(desk, request.params.eid, scope(request));
    const [signers, documents] = await Promise.all([desk.store.signers(packet.eid), desk.store.documents(packet.eid)]);
    return { packet: packetDetail(packet, signers, documents) };
  });

  api.get<{ Params: { eid: string; index: string } }>('/packets/:eid/documents/:index', async (request, reply) => {
    const desk = await ctx.packets();
    const s = scope(request);
    const packet = await packetOf(desk, request.params.eid, s);
    const docs = await desk.service.groupDocuments(packet.groupEid, s);
    const index = /^\d{1,4}$/.test(request.params.index) ? Number(request.params.index) : -1;
    const doc = docs[index];
    if (!doc) throw new NotFoundError(`No document ${request.params.index} in this packet`, 'index');
    return reply
      .type('application/pdf')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename="${doc.filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
      .send(Buffer.from(doc.pdf.buffer, doc.pdf.byteOffset, doc.pdf.byteLength));
  });

  api.post<{ Params: { eid: string; signerEid: string } }>(
    '/packets/:eid/signers/:signerEid/resend',
    async (request) => {
      const desk = await ctx.packets();
      const s = scope(request);
      const packet = await packetOf(desk, request.params.eid, s);
      const signer = await desk.store.signer(request.params.signerEid);
      if (!signer || signer.packetEid !== packet.eid)
        throw new NotFoundError(`No signer "${request.params.signerEid}" in this packet`, 'signerEid');
      return desk.service.resendSignatureRequest(signer.eid, s);
    },
  );
}
