/**
 * Templates by reference (#32; the spec's `duplicateCasts`, default false). A packet records the
 * template version each of its template files was made from (`options.templates`). While nobody
 * has signed, a by-reference packet follows its templates: when one has a newer version, the
 * documents are made again from it (the updateEtchPacket path, `rerender`), keeping the payload,
 * the signers, their tokens and states. `duplicateCasts: true` freezes the versions at creation.
 * After the first signature nothing changes: a signer who signed is never invalidated.
 *
 * When: the new version is picked up the next time the packet is read for a signer or the caller
 * (`openSigning`, the `etchPacket` query), not when the template is published: a template folder
 * the operator writes has no events, and a read is the last moment before anyone sees the
 * documents. An organization's own templates (the dashboard's) are looked up with the packet's
 * organization (own-templates.ts).
 */
import type { DocumentRecord, PacketRecord, TemplateVersionRecord } from '../store/index.js';
import type { WorkflowContext } from './context.js';
import { rerender } from './packet-documents.js';
import { runStep, type Snapshot } from './step.js';
import { latestTemplate } from './own-templates.js';

/** Whether the packet still follows its templates: by reference, made with versions recorded, not complete, nobody signed. */
function follows(snap: Pick<Snapshot, 'packet' | 'signers'>): boolean {
  const { packet } = snap;
  return (
    packet.options.duplicateCasts !== true &&
    (packet.options.templates?.length ?? 0) > 0 &&
    packet.status !== 'complete' &&
    snap.signers.every((s) => s.signedAt === null)
  );
}

const refusalKey = (t: TemplateVersionRecord) => `${t.castEid}@${t.versionNumber}`;

/** The packet's template versions with every template's latest published version; a lookup that fails keeps the current one. */
async function latestVersions(ctx: WorkflowContext, packet: PacketRecord): Promise<TemplateVersionRecord[]> {
  const refused = new Set(packet.options.refusedTemplates ?? []);
  return Promise.all(
    (packet.options.templates ?? []).map(async (t) => {
      // A version the request named itself stays (the caller pinned it).
      if (t.pinned) return t;
      try {
        const latest = (await latestTemplate(ctx, packet.organization, t.castEid)).versionNumber;
        const next = { ...t, versionNumber: latest ?? t.versionNumber };
        return refused.has(refusalKey(next)) ? t : next;
      } catch {
        // The template went away (or cannot be read): the packet keeps the documents it has.
        return t;
      }
    }),
  );
}

type Follow = { templates: TemplateVersionRecord[]; documents: DocumentRecord[] } | { refused: string[] } | undefined;

/**
 * Makes a by-reference packet's documents again when one of its templates has a newer version
 * (nobody signed yet). A version the packet cannot be assembled with (a field a signer references
 * is gone, say) is not taken: it is named in `EtchPacket.warnings` and not tried again.
 */
export async function followTemplates(ctx: WorkflowContext, eid: string): Promise<boolean> {
  const packet = await ctx.store.packet(eid);
  if (!packet) return false;
  // Cheap checks first: most reads find nothing to do (a directory listing per template).
  if (packet.options.duplicateCasts === true || !packet.options.templates?.length || packet.status === 'complete')
    return false;
  const latest = await latestVersions(ctx, packet);
  if (latest.every((t, i) => t.versionNumber === packet.options.templates![i]!.versionNumber)) return false;
  let followed = false;
  await runStep<Follow>(
    ctx,
    eid,
    async (tx, snap, _now, work) => {
      if (!work) return 0;
      if ('refused' in work) {
        const refused = [...(snap.packet.options.refusedTemplates ?? []), ...work.refused];
        const warnings = [...(snap.packet.options.warnings ?? []), ...work.refused.map(refusedWarning)];
        snap.packet.options = { ...snap.packet.options, refusedTemplates: refused, warnings };
        return 0;
      }
      snap.packet.options = { ...snap.packet.options, templates: work.templates };
      snap.documents = work.documents;
      followed = true;
      await tx.putDocuments(snap.packet.eid, work.documents);
      return 0;
    },
    async (snap) => {
      if (!follows(snap)) return undefined;
      const current = snap.packet.options.templates!;
      const next = await latestVersions(ctx, snap.packet);
      const changed = next.filter((t, i) => t.versionNumber !== current[i]!.versionNumber);
      if (changed.length === 0) return undefined;
      try {
        return { templates: next, documents: await rerender(ctx, snap, snap.packet.payload, next) };
      } catch (e) {
        // A version the packet's request no longer fits (typed 4xx): kept out; anything else is the read's error.
        if (!isRequestError(e)) throw e;
        return { refused: changed.map(refusalKey) };
      }
    },
  );
  return followed;
}

function refusedWarning(key: string): string {
  return `template ${key}: this version does not fit the packet (its fields or the signers' references changed); the packet keeps the version it was made from`;
}

function isRequestError(e: unknown): boolean {
  const status = (e as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
