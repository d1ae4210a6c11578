/**
 * The documents of a packet as the steps store them: drafts put into blobs, documents made again
 * for a new payload (every signer who signed replayed), and completion (certificate and seal).
 * The PDF work itself runs where `ctx.work` says.
 */
import { adoptedMarks, type SignerInputs } from '../apply.js';
import { loadPdf } from '../../pdf/index.js';
import { signatureCertificatesOf } from '../../signing/index.js';
import { CERTIFICATE_FILENAME } from '../complete.js';
import type { AdoptedMarks, AuditEvent } from '../completion-certificate.js';
import { signConsentText } from '../page-text.js';
import type { Signer } from '../request.js';
import type { DocumentRecord, PacketRecord, SignerRecord, TemplateVersionRecord, TokenRecord } from '../store/index.js';
import { decode } from './codec.js';
import { settingsOf, signatureMode, signerSealOf, type WorkflowContext } from './context.js';
import { documentsOf, type DocumentDraft } from './documents.js';
import { pinTemplates } from './payload.js';
import { assembleFor } from './own-templates.js';
import type { Snapshot } from './step.js';

/**
 * Per-signer mode, when a packet is sent (#31): the documents with every signer's mark field and
 * the operator's certification signature (DocMDP P=2, unless `certify: false`); undefined in
 * one-seal mode or when the work cannot prepare (the first signer's revision then makes the fields).
 */
export async function prepareForSending(
  ctx: WorkflowContext,
  packetEid: string,
  docs: ReadonlyArray<{ pdf: Uint8Array; fields: DocumentDraft['fields'] }>,
): Promise<Uint8Array[] | undefined> {
  if (signatureMode(ctx) !== 'per-signer' || !ctx.work.prepare) return undefined;
  return ctx.work.prepare(docs, {
    packetEid,
    certify: ctx.options.certify !== false,
    signingTime: new Date(ctx.now()),
  });
}

/**
 * The drafts' PDFs stored as blobs; their records (as assembled: nobody signed yet). `current`:
 * the documents as sent (prepareForSending), when they differ from the drafts.
 */
export async function storeDrafts(
  ctx: WorkflowContext,
  packetEid: string,
  drafts: DocumentDraft[],
  current?: Uint8Array[],
): Promise<DocumentRecord[]> {
  const out: DocumentRecord[] = [];
  for (const [index, d] of drafts.entries()) {
    const hash = await ctx.store.blobs.put(d.pdf);
    const sent = current?.[index];
    out.push({
      packetEid,
      index,
      fileId: d.fileId,
      filename: d.filename,
      title: d.title,
      pageCount: d.pageCount,
      assembledHash: hash,
      currentHash: sent ? await ctx.store.blobs.put(sent) : hash,
      fields: d.fields,
    });
  }
  return out;
}

/** The signer as their fields are drawn: the request's signer with the name and email they have now. */
export function signerOf(s: SignerRecord): Signer {
  return { ...s.signer, name: s.name ?? undefined, email: s.email ?? undefined };
}

/**
 * The documents for a new payload: assembled again, then every signer who signed replayed in order.
 * Template files use the versions the packet records (`templates`: default the packet's own; a
 * by-reference packet following a newer version passes the new ones, template-refs.ts).
 */
export async function rerender(
  ctx: WorkflowContext,
  snap: Snapshot,
  payload: PacketRecord['payload'],
  templates: readonly TemplateVersionRecord[] | undefined = snap.packet.options.templates,
): Promise<DocumentRecord[]> {
  const stored = decode(new TextDecoder().decode(await ctx.blob(snap.packet.requestHash))) as Record<string, unknown>;
  const assembled = await assembleFor(
    ctx,
    { ...pinTemplates(stored, templates), data: { payloads: payload } },
    snap.packet.organization,
  );
  const drafts = documentsOf(assembled);
  // A sent packet's documents are certified again before the signers who signed are replayed.
  let pdfs =
    (snap.packet.status !== 'draft' ? await prepareForSending(ctx, snap.packet.eid, drafts) : undefined) ??
    drafts.map((d) => d.pdf);
  const signed = snap.signers
    .filter((s) => s.status === 'completed')
    .sort((a, b) => (a.signedAt ?? 0) - (b.signedAt ?? 0));
  for (const s of signed) {
    const inputs = decode(new TextDecoder().decode(await ctx.blob(s.inputsHash!))) as SignerInputs;
    pdfs = await ctx.work.sign(
      drafts.map((d, i) => ({ pdf: pdfs[i]!, fields: d.fields })),
      signerOf(s),
      inputs,
      signerSealOf(ctx, snap.packet.eid, s.eid),
    );
  }
  const docs = await storeDrafts(ctx, snap.packet.eid, drafts);
  for (const [i, d] of docs.entries()) d.currentHash = await ctx.store.blobs.put(pdfs[i]!);
  return docs;
}

/** Certificate of completion and seal on every document, naming each signer who completed. */
export async function completePacket(
  ctx: WorkflowContext,
  snap: Snapshot,
  signed: Uint8Array[],
  now: number,
  /** The last signer's token, used in this step: the store marks it signed only when the step commits. */
  lastToken?: { signerEid: string; tokenEid: string },
): Promise<Uint8Array[]> {
  const tokens = new Map<string, TokenRecord[]>();
  for (const s of snap.signers) tokens.set(s.eid, await ctx.store.tokens(s.eid));
  const when = (t: number | null) => (t === null ? undefined : new Date(t));
  const timeZones = new Map<string, string>();
  const adopted = new Map<string, AdoptedMarks>();
  const fields = snap.documents.flatMap((d) => d.fields);
  for (const s of snap.signers) {
    if (s.status !== 'completed' || !s.inputsHash) continue;
    const inputs = decode(new TextDecoder().decode(await ctx.blob(s.inputsHash))) as SignerInputs;
    if (typeof inputs.timeZone === 'string') timeZones.set(s.eid, inputs.timeZone);
    adopted.set(s.eid, adoptedMarks(inputs, s.signer, fields));
  }
  const certificates = signatureMode(ctx) === 'per-signer' ? await signerCertificates(snap, signed) : undefined;
  return ctx.work.complete(
    await Promise.all(
      snap.documents.map(async (d, i) => ({
        filename: d.filename,
        assembled: await ctx.blob(d.assembledHash),
        signed: signed[i]!,
      })),
    ),
    {
      packetName: snap.packet.name,
      packetEid: snap.packet.eid,
      completedAt: new Date(now),
      signers: snap.signers
        .filter((s) => s.status === 'completed')
        .map((s) => ({
          name: s.name ?? undefined,
          email: s.email ?? undefined,
          routingOrder: s.routingOrder,
          // In person (#32): the certificate says the device was handed over and when the name was confirmed.
          signerType: s.signer.handedOver
            ? `${s.signerType}, handed over, name confirmed ${new Date(s.signer.handedOver.at).toISOString()}`
            : s.signerType,
          clientUserId: s.clientUserId ?? undefined,
          ip: s.ip ?? undefined,
          userAgent: s.userAgent ?? undefined,
          tokenId:
            tokens.get(s.eid)?.find((t) => t.signedAt !== null)?.eid ??
            (lastToken?.signerEid === s.eid ? lastToken.tokenEid : undefined),
          sentAt: when(s.sentAt),
          viewedAt: when(s.viewedAt),
          signedAt: when(s.signedAt),
          consentText: consentTextOf(ctx, snap.packet, s),
          events: eventsOf(snap, s, timeZones.get(s.eid)),
          ...(certificates ? { signatureCertificates: certificates.get(s.eid) ?? [] } : {}),
          ...(adopted.has(s.eid) ? { adopted: adopted.get(s.eid) } : {}),
        })),
    },
    signatureMode(ctx),
  );
}

/**
 * A signer's audit trail (#31): created and sent; every opening of the signing page before signing,
 * with the IP and user agent of that request; each box the page said was accepted and the signing
 * itself, with the submit's IP, user agent and the time zone the page reported (the caller's
 * `inputs.timeZone` for library submits). Boxes are accepted on the page before the submit; the
 * server learns of them with it, so they carry the submit's time.
 */
function eventsOf(snap: Snapshot, s: SignerRecord, inputsTimeZone: string | undefined): AuditEvent[] {
  const { packet } = snap;
  const at = (event: AuditEvent['event'], t: number | null): AuditEvent[] =>
    t === null ? [] : [{ event, at: new Date(t) }];
  const audit = s.signer.audit;
  const timeZone = audit?.timeZone ?? inputsTimeZone;
  const submit = {
    ...(s.ip ? { ip: s.ip } : {}),
    ...(s.userAgent ? { userAgent: s.userAgent } : {}),
    ...(timeZone ? { timeZone } : {}),
  };
  const views: AuditEvent[] = audit?.views?.length
    ? audit.views.map((v) => ({
        event: 'viewed' as const,
        at: new Date(v.at),
        ...(v.ip ? { ip: v.ip } : {}),
        ...(v.userAgent ? { userAgent: v.userAgent } : {}),
      }))
    : at('viewed', s.viewedAt);
  const accepted: AuditEvent[] =
    s.signedAt === null
      ? []
      : (audit?.accepted ?? []).map((a) => ({
          event: 'accepted' as const,
          at: new Date(s.signedAt!),
          detail: `${snap.documents[a.document]?.title ?? snap.documents[a.document]?.filename ?? `document ${a.document + 1}`}: ${a.fieldId}`,
          ...submit,
        }));
  return [
    ...at('created', packet.createdAt),
    ...at('sent', s.sentAt),
    ...views,
    ...accepted,
    ...(s.signedAt === null ? [] : [{ event: 'signed' as const, at: new Date(s.signedAt), ...submit }]),
  ];
}

/**
 * Per-signer mode: for each signer, the SHA-256 of the certificate of their signature on each document
 * (their signatures' /Reason names their eid: `… as signer <eid> of packet <eid>`).
 */
async function signerCertificates(
  snap: Snapshot,
  signed: Uint8Array[],
): Promise<Map<string, Array<{ document: string; sha256: string }>>> {
  const out = new Map<string, Array<{ document: string; sha256: string }>>();
  for (const [i, pdf] of signed.entries()) {
    const document = snap.documents[i]?.title ?? snap.documents[i]?.filename ?? `document ${i + 1}`;
    for (const sig of await signatureCertificatesOf(pdf)) {
      const signer = snap.signers.find((s) => sig.reason?.includes(` as signer ${s.eid} of packet ${snap.packet.eid}`));
      if (signer) out.set(signer.eid, [...(out.get(signer.eid) ?? []), { document, sha256: sig.sha256 }]);
    }
  }
  return out;
}

/** The consent text the signing page showed this signer (the packet's `signConsentText` with its placeholders filled). */
function consentTextOf(ctx: WorkflowContext, packet: PacketRecord, s: SignerRecord): string {
  return signConsentText(packet.options.signaturePageOptions, {
    organizationName: settingsOf(ctx, packet.organization)?.name ?? ctx.options.organization?.name ?? 'castpress',
    packetName: packet.name,
    signerName: s.name,
  });
}

/** Per-signer mode: the sealed certificate of completion as the packet's last document (it has no fields and no signers). */
export async function certificateRecord(
  ctx: WorkflowContext,
  packetEid: string,
  index: number,
  pdf: Uint8Array,
): Promise<DocumentRecord> {
  const hash = await ctx.store.blobs.put(pdf);
  return {
    packetEid,
    index,
    fileId: 'certificate',
    filename: CERTIFICATE_FILENAME,
    title: 'Certificate of completion',
    pageCount: (await loadPdf(pdf, 'certificate')).getPageCount(),
    assembledHash: hash,
    currentHash: hash,
    fields: [],
  };
}
