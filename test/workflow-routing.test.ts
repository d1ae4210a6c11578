/**
 * Routing without a store or server: which signers may sign now, parallel groups of equal
 * routingOrder, pending signers skipped or kept, the packet status that follows, and `advance`
 * (what a step writes when routing moves on) against a recorder of the writes it makes.
 */
import { describe, expect, it } from 'vitest';
import { packetStatus, redirectGroupStatus, route, type RoutedSigner } from '../src/packets/index.js';
import type { OutboxRecord, PacketRecord, SignerRecord, SignerStatus } from '../src/packets/index.js';
import { advance } from '../src/packets/lifecycle/core/advance.js';
import type { Snapshot } from '../src/packets/lifecycle/core/step.js';
import { packetRecord, signerRecord } from './helpers/workflow-records.js';

const at = (eid: string, routingOrder: number, status: SignerStatus = 'sent', pending = false): RoutedSigner => ({
  eid,
  routingOrder,
  status,
  pending,
});

describe('route', () => {
  it('signs round by round: equal routingOrder is one parallel group, a higher one waits for all of it', () => {
    const signers = [at('a', 1), at('b', 1), at('c', 2)];
    expect(route(signers)).toEqual({ order: 1, current: ['a', 'b'], skip: [] });
    // Either member of the group may finish first; the round stays open until both have.
    signers[1]!.status = 'completed';
    expect(route(signers)).toEqual({ order: 1, current: ['a'], skip: [] });
    signers[0]!.status = 'completed';
    expect(route(signers)).toEqual({ order: 2, current: ['c'], skip: [] });
    signers[2]!.status = 'completed';
    expect(route(signers)).toEqual({ order: null, current: [], skip: [] });
  });

  it('orders rounds by number, not by list position, and leaves gaps between numbers unimportant', () => {
    const signers = [at('late', 30), at('first', 1), at('mid', 7), at('first2', 1)];
    expect(route(signers).current).toEqual(['first', 'first2']);
    signers[1]!.status = 'completed';
    signers[3]!.status = 'viewed';
    expect(route(signers).current).toEqual(['first2']);
    signers[3]!.status = 'completed';
    expect(route(signers)).toEqual({ order: 7, current: ['mid'], skip: [] });
  });

  it('skips a round that has only pending signers left, and moves on to the next', () => {
    const signers = [at('a', 1, 'completed'), at('p', 2, 'pending', true), at('c', 3)];
    expect(route(signers)).toEqual({ order: 3, current: ['c'], skip: ['p'] });
    // Once skipped (or activated) the pending signer is no longer reported.
    signers[1]!.status = 'skipped';
    expect(route(signers)).toEqual({ order: 3, current: ['c'], skip: [] });
  });

  it('keeps a pending signer waiting (not skipped, not current) while an active one shares its round', () => {
    const signers = [at('p', 1, 'pending', true), at('b', 1), at('c', 2)];
    expect(route(signers)).toEqual({ order: 1, current: ['b'], skip: [] });
    signers[1]!.status = 'completed';
    expect(route(signers)).toEqual({ order: 2, current: ['c'], skip: ['p'] });
  });

  it('makes an activated signer current in its round', () => {
    const signers = [at('a', 1, 'completed'), at('p', 2, 'sent', false), at('c', 3)];
    expect(route(signers).current).toEqual(['p']);
  });

  it('is complete when every signer was skipped', () => {
    expect(route([at('p', 1, 'pending', true), at('q', 2, 'pending', true)])).toEqual({
      order: null,
      current: [],
      skip: ['p', 'q'],
    });
  });
});

describe('packet status', () => {
  it('stays a draft; is complete when nobody is left; partial once someone signed; sent before', () => {
    const signers = [at('a', 1, 'completed'), at('b', 2)];
    expect(packetStatus('draft', signers, route(signers))).toBe('draft');
    expect(packetStatus('sent', signers, route(signers))).toBe('partial');
    expect(packetStatus('sent', [at('a', 1), at('b', 2)], route([at('a', 1), at('b', 2)]))).toBe('sent');
    const done = [at('a', 1, 'completed'), at('b', 2, 'skipped')];
    expect(packetStatus('partial', done, route(done))).toBe('complete');
  });

  it('spells the group status of redirects as the spec does', () => {
    expect(
      ['draft', 'sent', 'partial', 'complete'].map((s) => redirectGroupStatus(s as PacketRecord['status'])),
    ).toEqual(['sent', 'sent', 'partial', 'completed']);
  });
});

describe('advance (what routing writes when it moves on)', () => {
  const signer = (eid: string, routingOrder: number, status: SignerStatus, signerType = 'email', pending = false) =>
    signerRecord(eid, routingOrder, status, { signerType, pending });
  const packet = (status: PacketRecord['status']) => packetRecord(status);
  function recorder() {
    const updates: string[] = [];
    const outbox: OutboxRecord[] = [];
    return {
      updates,
      outbox,
      tx: {
        updateSigner: async (s: SignerRecord) => void updates.push(`${s.eid}:${s.status}`),
        insertOutbox: async (e: OutboxRecord) => void outbox.push(e),
      },
    };
  }

  it('sending: every draft signer sent, the first round asked once (email signers mailed, embedded not), later rounds wait', async () => {
    const snap: Snapshot = {
      packet: packet('sent'),
      signers: [signer('a', 1, 'draft'), signer('e', 1, 'draft', 'embedded'), signer('c', 2, 'draft')],
      documents: [],
    };
    const r = recorder();
    expect(await advance(r.tx, snap, 1000, { sendAll: true })).toBe(1);
    expect(r.outbox.map((e) => [e.kind, e.payload.signerEid, e.payload.mail])).toEqual([
      ['email', 'a', 'signatureRequest'],
    ]);
    expect(snap.signers.map((s) => [s.eid, s.status, s.sentAt])).toEqual([
      ['a', 'sent', 1000],
      ['e', 'sent', 1000],
      ['c', 'sent', null],
    ]);
    expect(snap.packet.status).toBe('sent');
    // Moving on again with nobody finished asks nobody twice.
    const again = recorder();
    expect(await advance(again.tx, snap, 2000, {})).toBe(0);
    expect(again.outbox).toEqual([]);
  });

  it('after the last of a round signs: the pending-only round skipped, the next round mailed, the packet partial', async () => {
    const snap: Snapshot = {
      packet: packet('sent'),
      signers: [
        { ...signer('a', 1, 'completed'), sentAt: 1 },
        signer('p', 2, 'pending', 'email', true),
        signer('c', 3, 'sent'),
      ],
      documents: [],
    };
    const r = recorder();
    expect(await advance(r.tx, snap, 5000, {})).toBe(1);
    expect(r.updates).toEqual(['p:skipped', 'c:sent']);
    expect(r.outbox.map((e) => e.payload.signerEid)).toEqual(['c']);
    expect(snap.packet.status).toBe('partial');
    expect(snap.packet.completedAt).toBeNull();
  });

  it('when nobody is left the packet is complete at that time', async () => {
    const snap: Snapshot = {
      packet: packet('partial'),
      signers: [{ ...signer('a', 1, 'completed'), sentAt: 1 }],
      documents: [],
    };
    const r = recorder();
    expect(await advance(r.tx, snap, 7000, {})).toBe(0);
    expect(snap.packet).toMatchObject({ status: 'complete', completedAt: 7000 });
  });
});
