/** Signer step "view": opens the signing page, checks the token, marks the signer `viewed` (signerLoad). */
import { isStorageFull } from '../../../errors/index.js';
import { parseWith } from '../../../schema/index.js';
import { signerAccessArgs } from '../state/args.js';
import type { WorkflowContext } from '../core/context.js';
import { signerStatusEvent } from '../core/outbox.js';
import { sessionOf, type SigningSession } from '../core/session.js';
import { handOverFor } from './hand-over.js';
import { access, assertTurn } from '../core/signer-access.js';
import { readSnapshot, runStep, signerOfSnap, type Snapshot } from '../core/step.js';
import { followTemplates } from '../packet/template-refs.js';
import { MAX_AUDIT_VIEWS, type SignerAudit, type SignerRecord } from '../../store/index.js';

/** What the server saw of the request that opened the page (the audit trail's view events). */
export interface SeenRequest {
  ip?: string;
  userAgent?: string;
}

export async function openSigning(
  ctx: WorkflowContext,
  args: unknown,
  seen: SeenRequest = {},
): Promise<SigningSession> {
  const { signerEid, token } = parseWith(signerAccessArgs, args);
  const { signer, token: opened } = await access(ctx, signerEid, token);
  // By reference: the page shows a newer template version, while nobody has signed.
  try {
    await followTemplates(ctx, signer.packetEid);
  } catch (e) {
    // A full disk: the page opens with the documents it has.
    if (!isStorageFull(e)) throw e;
  }
  // In person: the page asks for the hand-over first, until it was confirmed for this URL.
  const view = (snap: Snapshot, s: SignerRecord): SigningSession => {
    const name = s.status === 'completed' ? null : handOverFor(s, opened.eid);
    return { ...sessionOf(snap, s), handOver: name === null ? null : { name } };
  };
  let session: SigningSession | undefined;
  try {
    await runStep(ctx, signer.packetEid, async (tx, snap, now) => {
      const s = signerOfSnap(snap, signerEid);
      assertTurn(snap, s, false);
      let events = 0;
      // Every opening before signing is an event of the audit trail, with the request's IP and user agent.
      if (s.status !== 'completed') {
        s.signer = { ...s.signer, audit: withView(s.signer.audit, { at: now, ...cleanSeen(seen) }) };
        if (s.status !== 'sent') await tx.updateSigner(s);
      }
      if (s.status === 'sent') {
        s.status = 'viewed';
        s.viewedAt = now;
        await tx.updateSigner(s);
        events += await signerStatusEvent(ctx, tx, snap, s, now);
      }
      session = view(snap, s);
      return events;
    });
  } catch (e) {
    if (!isStorageFull(e)) throw e;
    // A full disk: the page still opens, to be read; "viewed" (and its webhook) waits for a later open, or signing sets it.
    const snap = await readSnapshot(ctx, signer.packetEid);
    const s = signerOfSnap(snap, signerEid);
    assertTurn(snap, s, false);
    session = view(snap, s);
  }
  return session!;
}

function withView(audit: SignerAudit | undefined, view: NonNullable<SignerAudit['views']>[number]): SignerAudit {
  const views = [...(audit?.views ?? []), view];
  const dropped = Math.max(0, views.length - MAX_AUDIT_VIEWS);
  return {
    ...audit,
    views: views.slice(dropped),
    ...(dropped + (audit?.viewsDropped ?? 0) > 0 ? { viewsDropped: dropped + (audit?.viewsDropped ?? 0) } : {}),
  };
}

/** IP and user agent as the certificate shows them: bounded, and only when they are text. */
export function cleanSeen(seen: SeenRequest): SeenRequest {
  const clip = (v: unknown, n: number) => (typeof v === 'string' && v !== '' ? v.slice(0, n) : undefined);
  const ip = clip(seen.ip, 64);
  const userAgent = clip(seen.userAgent, 512);
  return { ...(ip ? { ip } : {}), ...(userAgent ? { userAgent } : {}) };
}
