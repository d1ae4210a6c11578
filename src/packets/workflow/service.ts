/**
 * The packet workflow (spec: States and transitions, Rules, Events, Errors) as a
 * service over a store, the engine and a signing identity. No HTTP: the server's
 * GraphQL routes and the signing page call these methods.
 *
 * Every step does its PDF work first, stores the new documents as blobs, and then
 * commits all record changes and the events they cause in one transaction, checked
 * against the packet's version: a process killed at any point leaves the packet as
 * it was before the step or as it is after it, never in between, and every
 * committed state change has its events in the outbox.
 */
import type { Engine } from '../../engine/index.js';
import { isStorageFull, NotFoundError, ValidationError } from '../../errors/index.js';
import { parseWith } from '../../schema/index.js';
import { AppearanceWriter, type SigningIdentity } from '../../signing/index.js';
import type { SignerInputs } from '../apply.js';
import type { MailMessage } from '../events/mail.js';
import { composeCompleted, composeSignatureRequest } from '../events/messages.js';
import type { MergedField, PlannedField } from '../plan.js';
import { TOKEN_MINUTES_EMAIL, TOKEN_MINUTES_EMBEDDED, type Signer } from '../request.js';
import { DEFAULT_ORGANIZATION, type DocumentRecord, type OutboxRecord, type PacketRecord, type PacketStore, type PacketWrites, type SignerRecord, type TokenRecord, type TokenType } from '../store/index.js';
import { expireArgs, packetArgs, sendArgs, signerAccessArgs, signUrlArgs, updatePacketArgs, updateSignerArgs } from './args.js';
import { decode, encode } from './codec.js';
import { documentsOf, type DocumentDraft } from './documents.js';
import { inProcessWork, type PacketWork } from './work.js';
import { PacketStateError, SignerError } from './errors.js';
import { packetStatus, redirectGroupStatus, route, type Routing } from './routing.js';
import { checkToken, newEid, newToken } from './tokens.js';
import { acceptsEachField, checkAccepted, detailsRequired, fieldIdOf, fieldPageOf, type AcceptedField } from './acceptance.js';
import { etchPacketView, type EtchPacketView } from './views.js';
import { visibleTo, type PacketScope } from './scope.js';
import { downloadUrl, downloadZipUrl, signingUrl } from './urls.js';

export interface PacketServiceOptions {
  store: PacketStore;
  engine: Engine;
  /** Seals completed documents. */
  identity: SigningIdentity;
  /** Public address of the server: signing URLs and download URLs start with it. */
  baseUrl: string;
  clock?: () => Date;
  /** Named in emails (reply-to defaults). */
  organization?: { name: string; supportEmail: string };
  /** From address of emails; default `"<organization> via castpress" <no-reply@castpress.local>`. */
  mailFrom?: string;
  /** The organization's webhook (a packet's `webhookURL` replaces its URL). */
  webhook?: { url?: string; token?: string };
  /** Called after a commit that wrote outbox events (the dispatcher's poke). */
  onEvents?: () => void;
  writer?: AppearanceWriter;
  /** Where assembly, signing and completion run; default in-process (`inProcessWork`). The server passes worker threads. */
  work?: PacketWork;
}

/** What a signer submits when finishing (the signing page posts it). */
export interface SigningSubmission {
  signerEid: string;
  token: string;
  inputs: SignerInputs;
  ip?: string;
  userAgent?: string;
  /**
   * The signature/initials boxes the signer accepted one by one. The signing page always
   * sends it; when given and the signer accepts each field, every box of theirs must be in it.
   */
  accepted?: readonly AcceptedField[];
}

/** Redirect query parameters and iframe message of the spec, as values. */
export interface SignerEvent {
  action: 'signerLoad' | 'signerSign' | 'signerComplete' | 'signerError';
  signerStatus?: string;
  signerEid: string;
  nextSignerEid?: string | null;
  documentGroupStatus?: 'completed' | 'partial' | 'sent';
  documentGroupEid?: string;
  etchPacketEid?: string;
  errorType?: string;
  error?: string;
  message?: string;
}

export interface SigningSession {
  packet: { eid: string; name: string; status: string; isTest: boolean; signaturePageOptions?: unknown };
  signer: { eid: string; aliasId: string; name: string | null; email: string | null; status: string; signerType: string; options: Record<string, unknown> };
  documents: Array<{ index: number; filename: string; title: string | null; pageCount: number; fields: Array<PlannedField | MergedField> }>;
  /** The signer's fields as the page places them: document, page (0-based), rect (points from the page's top-left). */
  boxes: Array<{ document: number; fieldId: string; type: string; page: number; rect: { x: number; y: number; width: number; height: number } }>;
  /** The signer clicks each signature/initials box (acceptEachField with signWhileReviewing). */
  acceptEachField: boolean;
  /** Name/email still to be entered before the documents are shown (requireNameOnLoad / requireEmailOnLoad). */
  detailsRequired: { name: boolean; email: boolean };
  /** The signerLoad message (and redirect parameters) for this view. */
  event: SignerEvent;
  /** Where the browser goes after finishing, when the signer has one. */
  redirectURL?: string;
}

interface Snapshot {
  packet: PacketRecord;
  signers: SignerRecord[];
  documents: DocumentRecord[];
}

const MINUTE = 60_000;
const STEP_RETRIES = 5;

/** Thrown inside a transaction when the packet changed since the step read it: the step is recomputed. */
class StaleVersion extends Error {}

export class PacketService {
  readonly #o: PacketServiceOptions;
  readonly #store: PacketStore;
  readonly #work: PacketWork;

  constructor(options: PacketServiceOptions) {
    this.#o = options;
    this.#store = options.store;
    this.#work = options.work ?? inProcessWork(options.engine, options.identity, options.writer ?? new AppearanceWriter());
  }

  #now(): Date {
    return (this.#o.clock ?? (() => new Date()))();
  }

  // ——— operations of the spec ———

  /**
   * `createEtchPacket`: assembles the documents, stores the packet, sends it unless `isDraft`.
   * The packet belongs to the scope's organization; a test-only scope (development key) makes
   * a test packet whatever `isTest` says, as the hosted API's development keys do.
   *
   * Every operation below takes the caller's `scope` (see scope.ts): a packet, signer or group
   * outside it is answered as an unknown one. Without a scope every packet is visible.
   */
  async createEtchPacket(body: unknown, scope?: PacketScope): Promise<EtchPacketView> {
    const assembled = await this.#work.assemble(body);
    const request = assembled.request;
    const now = this.#now().getTime();
    const stored = storableRequest(body);
    const requestHash = await this.#store.blobs.put(new TextEncoder().encode(encode(stored)));
    const drafts = documentsOf(assembled);
    const documents = await this.#storeDrafts('', drafts);
    const packet: PacketRecord = {
      eid: newEid('pkt'),
      groupEid: newEid('grp'),
      organization: scope?.organization ?? DEFAULT_ORGANIZATION,
      name: request.name,
      status: 'draft',
      isTest: scope?.testOnly === true || (request.isTest ?? false),
      allowUpdates: request.allowUpdates ?? false,
      mergePDFs: request.mergePDFs ?? false,
      webhookURL: request.webhookURL ?? null,
      requestHash,
      payload: request.payloads as PacketRecord['payload'],
      options: {
        signatureEmailSubject: request.signatureEmailSubject,
        signatureEmailBody: request.signatureEmailBody,
        replyToName: request.replyToName,
        replyToEmail: request.replyToEmail,
        signaturePageOptions: request.signaturePageOptions,
        ...(assembled.warnings.length > 0 ? { warnings: assembled.warnings } : {}),
      },
      createdAt: now,
      updatedAt: now,
      completedAt: null,
      version: 0,
    };
    const signers: SignerRecord[] = request.signers.map((s, index) => ({
      eid: newEid('sgn'),
      packetEid: packet.eid,
      aliasId: s.id,
      index,
      routingOrder: s.routingOrder,
      name: s.name ?? null,
      email: s.email ?? null,
      signerType: s.signerType,
      status: s.isPending ? 'pending' : 'draft',
      pending: s.isPending,
      signer: s as unknown as Record<string, unknown>,
      inputsHash: null,
      clientUserId: null,
      sentAt: null,
      viewedAt: null,
      signedAt: null,
      ip: null,
      userAgent: null,
    }));
    const send = !(request.isDraft ?? false);
    let events = 0;
    await this.#store.transaction(async (tx) => {
      await tx.insertPacket(packet);
      for (const s of signers) await tx.insertSigner(s);
      await tx.putDocuments(
        packet.eid,
        documents.map((d) => ({ ...d, packetEid: packet.eid })),
      );
      if (send) {
        const snap: Snapshot = { packet: { ...packet, status: 'sent' }, signers, documents };
        events += await this.#advance(tx, snap, now, { sendAll: true });
        if (!(await tx.updatePacket(snap.packet))) throw new StaleVersion();
      }
    });
    if (events) this.#o.onEvents?.();
    return this.etchPacket({ eid: packet.eid }, scope);
  }

  /** `sendEtchPacket`: a draft becomes sent; a sent or partial packet re-notifies its current email signers. */
  async sendEtchPacket(args: unknown, scope?: PacketScope): Promise<EtchPacketView> {
    const { eid } = parseWith(sendArgs, args);
    await this.#packetIn(eid, scope);
    await this.#step(eid, async (tx, snap, now) => {
      if (snap.packet.status === 'complete') throw new PacketStateError('The packet is complete: every signer has signed', 'eid');
      if (snap.packet.status === 'draft') {
        snap.packet.status = 'sent';
        return this.#advance(tx, snap, now, { sendAll: true });
      }
      const routing = route(snap.signers);
      let events = 0;
      for (const s of snap.signers.filter((x) => routing.current.includes(x.eid) && x.status !== 'completed')) events += await this.#notify(tx, snap, s, now);
      return events;
    });
    return this.etchPacket({ eid }, scope);
  }

  /** `generateEtchSignURL`: a new token for an embedded signer, its lifetime restarted. */
  async generateEtchSignURL(args: unknown, scope?: PacketScope): Promise<string> {
    const { signerEid, clientUserId } = parseWith(signUrlArgs, args);
    const signer = await this.#signerIn(signerEid, scope);
    if (signer.signerType !== 'embedded') throw ValidationError.of('signerEid', `Signer "${signerEid}" is an ${signer.signerType} signer: signing URLs are generated for embedded signers only`);
    let url = '';
    await this.#step(signer.packetEid, async (tx, snap, now) => {
      const s = snap.signers.find((x) => x.eid === signerEid)!;
      if (snap.packet.status === 'draft') throw new PacketStateError('The packet is a draft: send it first (sendEtchPacket)', 'signerEid');
      if (s.status === 'completed') throw new PacketStateError('This signer has already signed', 'signerEid');
      if (s.status === 'pending' || s.status === 'skipped') throw new PacketStateError(`This signer is ${s.status}`, 'signerEid');
      url = await this.#issueToken(tx, s, 'embedded', now);
      s.clientUserId = clientUserId;
      await tx.updateSigner(s);
      return 0;
    });
    return url;
  }

  /** `expireSignerTokens` (arguments not shown by the spec: the signer's eid): every token of the signer ends now. */
  async expireSignerTokens(args: unknown, scope?: PacketScope): Promise<{ signerEid: string; expired: number }> {
    const { signerEid } = parseWith(expireArgs, args);
    await this.#signerIn(signerEid, scope);
    const now = this.#now().getTime();
    const expired = await this.#store.transaction((tx) => tx.invalidateTokens(signerEid, now));
    return { signerEid, expired };
  }

  /** `updateEtchPacket`: new name and/or payload (replaced, or merged with `mergePayloads`); documents re-rendered. */
  async updateEtchPacket(args: unknown, scope?: PacketScope): Promise<EtchPacketView> {
    const a = parseWith(updatePacketArgs, args);
    const current = await this.#read(a.eid, scope);
    if (a.payload !== undefined && a.payload !== null && !current.packet.allowUpdates) {
      throw new PacketStateError('The packet was created without allowUpdates: its payload cannot change', 'payload');
    }
    if (current.packet.status === 'complete') throw new PacketStateError('The packet is complete: updates are no longer accepted', 'eid');
    const hasPayload = a.payload !== undefined && a.payload !== null;
    await this.#step<{ payload: PacketRecord['payload']; documents: DocumentRecord[] } | undefined>(
      a.eid,
      async (tx, snap, _now, work) => {
        if (a.name) snap.packet.name = a.name;
        if (work) {
          snap.packet.payload = work.payload;
          snap.documents = work.documents;
          await tx.putDocuments(snap.packet.eid, work.documents);
        }
        return 0;
      },
      async (snap) => {
        if (!hasPayload) return undefined;
        if (snap.packet.status === 'complete') throw new PacketStateError('The packet is complete: updates are no longer accepted', 'eid');
        const payload = mergePayload(snap.packet.payload, a.payload!, a.mergePayloads ?? false);
        return { payload, documents: await this.#rerender(snap, payload) };
      },
    );
    return this.etchPacket({ eid: a.eid }, scope);
  }

  /** `updateSigner`: name/email of a signer who has not signed; `activateIfPending` activates a pending signer. */
  async updateSigner(args: unknown, scope?: PacketScope): Promise<{ eid: string; name: string | null; email: string | null; status: string }> {
    const a = parseWith(updateSignerArgs, args);
    const found = await this.#signerIn(a.eid, scope);
    let result: SignerRecord = found;
    await this.#step(found.packetEid, async (tx, snap, now) => {
      const s = snap.signers.find((x) => x.eid === a.eid)!;
      if (snap.packet.status === 'complete') throw new PacketStateError('The packet is complete: updates are no longer accepted', 'eid');
      if (s.status === 'completed') throw new PacketStateError('This signer has already signed: name and email can no longer change', 'eid');
      if (s.status === 'skipped') throw new PacketStateError('This pending signer was skipped: its round passed before it was activated', 'eid');
      const name = a.name ?? s.name;
      const email = a.email ?? s.email;
      const activate = s.pending && a.activateIfPending === true;
      if (activate && (!name || !email)) {
        throw new ValidationError([
          ...(!name ? [{ property: 'name', message: 'An activated signer needs a name' }] : []),
          ...(!email ? [{ property: 'email', message: 'An activated signer needs an email' }] : []),
        ]);
      }
      s.name = name;
      s.email = email;
      s.signer = { ...s.signer, name: name ?? undefined, email: email ?? undefined };
      let events = 0;
      if (activate) {
        s.pending = false;
        s.status = snap.packet.status === 'draft' ? 'draft' : 'sent';
        await tx.updateSigner(s);
        if (snap.packet.status !== 'draft') events += await this.#advance(tx, snap, now, {});
      } else {
        await tx.updateSigner(s);
      }
      result = s;
      return events;
    });
    return { eid: result.eid, name: result.name, email: result.email, status: result.status };
  }

  /** Query `etchPacket`. */
  async etchPacket(args: unknown, scope?: PacketScope): Promise<EtchPacketView> {
    const { eid } = parseWith(packetArgs, args);
    const snap = await this.#read(eid, scope);
    const tokens = new Map<string, TokenRecord[]>();
    for (const s of snap.signers) tokens.set(s.eid, await this.#store.tokens(s.eid));
    return etchPacketView(snap.packet, snap.signers, snap.documents, tokens, this.#o.baseUrl, this.#now().getTime());
  }

  // ——— the signer's side (the signing page) ———

  /** Opens the signing page: checks the token, marks the signer `viewed` (signerLoad). */
  async openSigning(args: unknown): Promise<SigningSession> {
    const { signerEid, token } = parseWith(signerAccessArgs, args);
    const { signer } = await this.#access(signerEid, token);
    let session: SigningSession | undefined;
    try {
      await this.#step(signer.packetEid, async (tx, snap, now) => {
        const s = snap.signers.find((x) => x.eid === signerEid)!;
        this.#assertTurn(snap, s, false);
        let events = 0;
        if (s.status === 'sent') {
          s.status = 'viewed';
          s.viewedAt = now;
          await tx.updateSigner(s);
          events += await this.#webhook(tx, snap, 'signerUpdateStatus', statusData(snap, s), now);
        }
        session = sessionOf(snap, s);
        return events;
      });
    } catch (e) {
      if (!isStorageFull(e)) throw e;
      // A full disk: the page still opens, to be read; "viewed" (and its webhook) waits for a later open, or signing sets it.
      const snap = await this.#read(signer.packetEid);
      const s = snap.signers.find((x) => x.eid === signerEid)!;
      this.#assertTurn(snap, s, false);
      session = sessionOf(snap, s);
    }
    return session!;
  }

  /** A document as the signer sees it now (the signing page shows it). */
  async signerDocument(args: unknown, index: number): Promise<{ filename: string; pdf: Uint8Array }> {
    const { signerEid, token } = parseWith(signerAccessArgs, args);
    const { signer } = await this.#access(signerEid, token);
    // As the signing page (which shows "Already signed" and no document): a finished signer's link is spent.
    if (signer.status === 'completed') throw new SignerError('unknown', 'Already signed', 'This signer has signed; the signing link no longer serves the documents', signerEid, 410);
    const doc = (await this.#store.documents(signer.packetEid)).find((d) => d.index === index);
    if (!doc) throw ValidationError.of('index', `No document ${index}`);
    return { filename: doc.filename, pdf: await this.#blob(doc.currentHash) };
  }

  /** The signer finishes: their inputs drawn on the documents; the last signer completes and seals the packet. */
  async submitSigning(submission: SigningSubmission): Promise<SignerEvent & { redirectURL?: string }> {
    const { signerEid, token } = parseWith(signerAccessArgs, { signerEid: submission.signerEid, token: submission.token });
    const { signer: found } = await this.#access(signerEid, token);
    let event: SignerEvent | undefined;
    let redirectURL: string | undefined;
    await this.#step<{ tokenEid: string }>(
      found.packetEid,
      async (tx, snap, now, work) => {
        const s = snap.signers.find((x) => x.eid === signerEid)!;
        await tx.putDocuments(snap.packet.eid, snap.documents);
        await tx.updateSigner(s);
        await tx.markTokenSigned(work.tokenEid, now);
        let events = await this.#advance(tx, snap, now, {});
        const next = route(snap.signers);
        event = {
          action: 'signerComplete',
          signerStatus: 'completed',
          signerEid,
          nextSignerEid: snap.signers.find((x) => next.current.includes(x.eid))?.eid ?? null,
          documentGroupStatus: redirectGroupStatus(snap.packet.status),
          documentGroupEid: snap.packet.groupEid,
          etchPacketEid: snap.packet.eid,
        };
        redirectURL = typeof s.signer.redirectURL === 'string' ? s.signer.redirectURL : undefined;
        events += await this.#webhook(tx, snap, 'signerComplete', { ...event, aliasId: s.aliasId, signers: signersData(snap) }, now);
        if (snap.packet.status === 'complete') events += await this.#finish(tx, snap, now);
        return events;
      },
      async (snap, now) => {
        // Checked again on the state the step works on: another tab may have finished meanwhile.
        const s = snap.signers.find((x) => x.eid === signerEid)!;
        this.#assertTurn(snap, s, true);
        const matched = checkToken(token, await this.#store.tokens(signerEid), signerEid, now);
        const missing = detailsRequired(s.signer);
        if (missing.name || missing.email) {
          throw ValidationError.of(missing.name ? 'name' : 'email', `Enter your ${missing.name ? 'name' : 'email'} before signing (required on opening)`);
        }
        if (submission.accepted && acceptsEachField(s.signer)) {
          checkAccepted(
            snap.documents.map((d) => ({ index: d.index, fields: d.fields as Array<PlannedField | MergedField> })),
            s.aliasId,
            submission.accepted,
          );
        }
        const inputs: SignerInputs = { ...submission.inputs, signedAt: new Date(now) };
        const current = await Promise.all(snap.documents.map((d) => this.#blob(d.currentHash)));
        const signed = await this.#work.sign(
          snap.documents.map((d, i) => ({ pdf: current[i]!, fields: d.fields as Array<PlannedField | MergedField> })),
          signerOf(s),
          inputs,
        );
        s.status = 'completed';
        s.signedAt = now;
        s.ip = submission.ip ?? null;
        s.userAgent = submission.userAgent ?? null;
        if (s.viewedAt === null) s.viewedAt = now;
        s.inputsHash = await this.#store.blobs.put(new TextEncoder().encode(encode(inputs)));
        const finals = route(snap.signers).order === null ? await this.#complete(snap, snap.documents, signed, now) : signed;
        for (const [i, d] of snap.documents.entries()) d.currentHash = await this.#store.blobs.put(finals[i]!);
        return { tokenEid: matched.eid };
      },
    );
    return { ...event!, ...(redirectURL ? { redirectURL } : {}) };
  }

  /**
   * A signer changes their own name or email: allowed by allowNameChange / allowEmailChange, and
   * asked for by requireNameOnLoad / requireEmailOnLoad (the time it was entered is kept: signing
   * waits for it). `signerUpdateStatus`. The new name is what the name fields and certificate show.
   */
  async updateOwnDetails(args: unknown, change: { name?: string; email?: string }): Promise<void> {
    const { signerEid, token } = parseWith(signerAccessArgs, args);
    const c = parseWith(updateSignerArgs.pick({ name: true, email: true }), change);
    const { signer } = await this.#access(signerEid, token);
    await this.#step(signer.packetEid, async (tx, snap, now) => {
      const s = snap.signers.find((x) => x.eid === signerEid)!;
      this.#assertTurn(snap, s, true);
      if (c.name && s.signer.allowNameChange !== true && s.signer.requireNameOnLoad !== true) throw ValidationError.of('name', 'This signer may not change their name');
      if (c.email && s.signer.allowEmailChange !== true && s.signer.requireEmailOnLoad !== true) throw ValidationError.of('email', 'This signer may not change their email');
      if (c.name) s.name = c.name;
      if (c.email) s.email = c.email;
      s.signer = {
        ...s.signer,
        name: s.name ?? undefined,
        email: s.email ?? undefined,
        ...(c.name && s.signer.requireNameOnLoad === true ? { nameEnteredAt: now } : {}),
        ...(c.email && s.signer.requireEmailOnLoad === true ? { emailEnteredAt: now } : {}),
      };
      await tx.updateSigner(s);
      return this.#webhook(tx, snap, 'signerUpdateStatus', { ...statusData(snap, s), name: s.name, email: s.email }, now);
    });
  }

  /** A signer's redirectURL and the parameters of where they stand (for error redirects); undefined without one. */
  async redirectFor(signerEid: string): Promise<{ url: string; event: SignerEvent } | undefined> {
    const s = await this.#store.signer(signerEid);
    if (!s || typeof s.signer.redirectURL !== 'string') return undefined;
    const packet = await this.#store.packet(s.packetEid);
    if (!packet) return undefined;
    return {
      url: s.signer.redirectURL,
      event: {
        action: 'signerError',
        signerStatus: s.status,
        signerEid: s.eid,
        documentGroupStatus: redirectGroupStatus(packet.status),
        documentGroupEid: packet.groupEid,
        etchPacketEid: packet.eid,
      },
    };
  }

  // ——— downloads ———

  /** Every document of a document group as it is now (sealed once complete). */
  async groupDocuments(groupEid: string, scope?: PacketScope): Promise<Array<{ filename: string; pdf: Uint8Array }>> {
    const packet = await this.#store.packetByGroup(groupEid);
    if (!packet || !visibleTo(packet, scope)) throw new NotFoundError(`No document group "${groupEid}"`, 'documentGroupEid');
    const docs = await this.#store.documents(packet.eid);
    return Promise.all(docs.map(async (d) => ({ filename: d.filename, pdf: await this.#blob(d.currentHash) })));
  }

  // ——— steps ———

  async #read(eid: string, scope?: PacketScope): Promise<Snapshot> {
    const packet = await this.#packetIn(eid, scope);
    return { packet, signers: await this.#store.signers(eid), documents: await this.#store.documents(eid) };
  }

  /** The packet when the scope may see it; otherwise the 404 of an unknown eid. */
  async #packetIn(eid: string, scope: PacketScope | undefined): Promise<PacketRecord> {
    const packet = await this.#store.packet(eid);
    if (!packet || !visibleTo(packet, scope)) throw new NotFoundError(`No packet "${eid}"`, 'eid');
    return packet;
  }

  /** The signer when the scope may see its packet; otherwise the 404 of an unknown signer eid. */
  async #signerIn(signerEid: string, scope: PacketScope | undefined): Promise<SignerRecord> {
    const signer = await this.#store.signer(signerEid);
    const packet = signer && scope ? await this.#store.packet(signer.packetEid) : undefined;
    if (!signer || (scope && !(packet && visibleTo(packet, scope)))) throw new SignerError('notFound', 'Signer not found', `No signer "${signerEid}"`, signerEid);
    return signer;
  }

  /**
   * One state change. `prepare` runs on the packet as read, outside any transaction (PDF
   * work, blobs stored); `commit` then records the changes in one transaction that first
   * locks the packet and checks it is still the version that was read. When another step
   * committed in between, the whole step runs again on the new state.
   */
  async #step<W = undefined>(
    eid: string,
    commit: (tx: PacketWrites, snap: Snapshot, now: number, work: W) => Promise<number>,
    prepare?: (snap: Snapshot, now: number) => Promise<W>,
  ): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const snap = await this.#read(eid);
      const now = this.#now().getTime();
      const work = prepare ? await prepare(snap, now) : (undefined as W);
      try {
        const events = await this.#store.transaction(async (tx) => {
          const locked = await tx.lockPacket(eid);
          if (!locked || locked.version !== snap.packet.version) throw new StaleVersion();
          const n = await commit(tx, snap, now, work);
          snap.packet.updatedAt = now;
          if (!(await tx.updatePacket(snap.packet))) throw new StaleVersion();
          return n;
        });
        if (events) this.#o.onEvents?.();
        return;
      } catch (e) {
        if (!(e instanceof StaleVersion) || attempt >= STEP_RETRIES) throw e;
      }
    }
  }

  /**
   * Moves the routing on: skips pending signers whose round came with only pending ones
   * left, asks the current signers (email for `email` signers), sets the packet's status.
   */
  async #advance(tx: PacketWrites, snap: Snapshot, now: number, options: { sendAll?: boolean }): Promise<number> {
    let events = 0;
    if (options.sendAll) {
      for (const s of snap.signers) {
        if (s.status === 'draft') {
          s.status = 'sent';
          await tx.updateSigner(s);
        }
      }
    }
    let routing: Routing = route(snap.signers);
    for (const eid of routing.skip) {
      const s = snap.signers.find((x) => x.eid === eid)!;
      s.status = 'skipped';
      await tx.updateSigner(s);
    }
    routing = route(snap.signers);
    for (const s of snap.signers.filter((x) => routing.current.includes(x.eid) && x.sentAt === null)) {
      s.sentAt = now;
      await tx.updateSigner(s);
      events += await this.#notify(tx, snap, s, now);
    }
    snap.packet.status = packetStatus(snap.packet.status, snap.signers, routing);
    if (snap.packet.status === 'complete' && snap.packet.completedAt === null) snap.packet.completedAt = now;
    return events;
  }

  /** The signing request email of an `email` signer (embedded signers get their URL from generateEtchSignURL). */
  async #notify(tx: PacketWrites, snap: Snapshot, s: SignerRecord, now: number): Promise<number> {
    if (s.signerType !== 'email' || !s.email) return 0;
    await tx.insertOutbox(outboxEvent(snap.packet.eid, 'email', { mail: 'signatureRequest', signerEid: s.eid }, now));
    return 1;
  }

  async #webhook(tx: PacketWrites, snap: Snapshot, action: string, data: Record<string, unknown>, now: number): Promise<number> {
    const url = snap.packet.webhookURL ?? this.#o.webhook?.url;
    if (!url) return 0;
    await tx.insertOutbox(outboxEvent(snap.packet.eid, 'webhook', { action, url, data }, now));
    return 1;
  }

  /** Packet complete: `etchPacketComplete` and the `etchComplete` emails of signers who want them. */
  async #finish(tx: PacketWrites, snap: Snapshot, now: number): Promise<number> {
    const files = snap.documents.map((d) => ({ filename: d.filename, downloadURL: downloadUrl(this.#o.baseUrl, snap.packet.groupEid, d.filename) }));
    let events = await this.#webhook(
      tx,
      snap,
      'etchPacketComplete',
      {
        etchPacketEid: snap.packet.eid,
        name: snap.packet.name,
        isTest: snap.packet.isTest,
        documentGroupEid: snap.packet.groupEid,
        documentGroupStatus: 'completed',
        signers: signersData(snap),
        files,
        downloadZipURL: downloadZipUrl(this.#o.baseUrl, snap.packet.groupEid),
      },
      now,
    );
    for (const s of snap.signers) {
      const enabled = s.signer.enableEmails;
      const wants = enabled === true || enabled === undefined || (Array.isArray(enabled) && enabled.includes('etchComplete'));
      if (s.status !== 'completed' || !s.email || !wants) continue;
      await tx.insertOutbox(outboxEvent(snap.packet.eid, 'email', { mail: 'etchComplete', signerEid: s.eid }, now));
      events++;
    }
    return events;
  }

  async #complete(snap: Snapshot, docs: DocumentRecord[], signed: Uint8Array[], now: number): Promise<Uint8Array[]> {
    const tokens = new Map<string, TokenRecord[]>();
    for (const s of snap.signers) tokens.set(s.eid, await this.#store.tokens(s.eid));
    const when = (t: number | null) => (t === null ? undefined : new Date(t));
    return this.#work.complete(
      await Promise.all(docs.map(async (d, i) => ({ filename: d.filename, assembled: await this.#blob(d.assembledHash), signed: signed[i]! }))),
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
            signerType: s.signerType,
            clientUserId: s.clientUserId ?? undefined,
            ip: s.ip ?? undefined,
            userAgent: s.userAgent ?? undefined,
            tokenId: tokens.get(s.eid)?.find((t) => t.signedAt !== null)?.eid,
            sentAt: when(s.sentAt),
            viewedAt: when(s.viewedAt),
            signedAt: when(s.signedAt),
          })),
      },
    );
  }

  /** The documents for a new payload: assembled again, then every signer who signed replayed in order. */
  async #rerender(snap: Snapshot, payload: PacketRecord['payload']): Promise<DocumentRecord[]> {
    const stored = decode(new TextDecoder().decode(await this.#blob(snap.packet.requestHash))) as Record<string, unknown>;
    const assembled = await this.#work.assemble({ ...stored, data: { payloads: payload } });
    const drafts = documentsOf(assembled);
    let pdfs = drafts.map((d) => d.pdf);
    const signed = snap.signers.filter((s) => s.status === 'completed').sort((a, b) => (a.signedAt ?? 0) - (b.signedAt ?? 0));
    for (const s of signed) {
      const inputs = decode(new TextDecoder().decode(await this.#blob(s.inputsHash!))) as SignerInputs;
      pdfs = await this.#work.sign(
        drafts.map((d, i) => ({ pdf: pdfs[i]!, fields: d.fields })),
        signerOf(s),
        inputs,
      );
    }
    const docs = await this.#storeDrafts(snap.packet.eid, drafts);
    for (const [i, d] of docs.entries()) d.currentHash = await this.#store.blobs.put(pdfs[i]!);
    return docs;
  }

  async #storeDrafts(packetEid: string, drafts: DocumentDraft[]): Promise<DocumentRecord[]> {
    const out: DocumentRecord[] = [];
    for (const [index, d] of drafts.entries()) {
      const hash = await this.#store.blobs.put(d.pdf);
      out.push({ packetEid, index, fileId: d.fileId, filename: d.filename, title: d.title, pageCount: d.pageCount, assembledHash: hash, currentHash: hash, fields: d.fields });
    }
    return out;
  }

  async #blob(hash: string): Promise<Uint8Array> {
    const bytes = await this.#store.blobs.get(hash);
    if (!bytes) throw new Error(`Document ${hash} is missing from the blob store`);
    return bytes;
  }

  /** A new token of `type` for the signer; the URL that carries it. */
  async #issueToken(tx: PacketWrites, s: SignerRecord, type: TokenType, now: number): Promise<string> {
    const minutes = typeof s.signer.tokenValidForMinutes === 'number' ? s.signer.tokenValidForMinutes : type === 'embedded' ? TOKEN_MINUTES_EMBEDDED : TOKEN_MINUTES_EMAIL;
    const { token, hash } = newToken();
    await tx.insertToken({ eid: newEid('tok'), signerEid: s.eid, hash, type, createdAt: now, validUntil: now + minutes * MINUTE, invalidatedAt: null, signedAt: null });
    return signingUrl(this.#o.baseUrl, s.eid, token);
  }

  /** Checks a signer's token (outside a transaction: a refusal changes nothing). */
  async #access(signerEid: string, token: string): Promise<{ signer: SignerRecord; token: TokenRecord }> {
    const signer = await this.#store.signer(signerEid);
    if (!signer) throw new SignerError('notFound', 'Signer not found', `No signer "${signerEid}"`, signerEid);
    const matched = checkToken(token, await this.#store.tokens(signerEid), signerEid, this.#now().getTime());
    return { signer, token: matched };
  }

  #assertTurn(snap: Snapshot, s: SignerRecord, toSign: boolean): void {
    const fail = (message: string) => new SignerError('unknown', 'Cannot sign now', message, s.eid);
    if (snap.packet.status === 'draft') throw fail('The packet has not been sent yet');
    if (s.status === 'completed') {
      if (toSign) throw fail('You have already signed');
      return;
    }
    if (s.status === 'pending' || s.status === 'skipped') throw fail(`This signer is ${s.status}`);
    if (!route(snap.signers).current.includes(s.eid)) throw fail('Earlier signers in the routing order have not finished yet');
  }

  /** The email an outbox event describes, made at delivery: a signing link carries a token made now (only its hash is kept). */
  async composeMail(event: OutboxRecord): Promise<MailMessage | null> {
    const signerEid = String(event.payload.signerEid);
    const kind = String(event.payload.mail);
    const s = await this.#store.signer(signerEid);
    const packet = s && (await this.#store.packet(s.packetEid));
    if (!s || !packet || !s.email) return null;
    if (kind === 'signatureRequest' && (s.status === 'completed' || s.status === 'skipped' || packet.status === 'complete')) return null;
    const now = this.#now().getTime();
    const url = await this.#store.transaction((tx) => this.#issueToken(tx, s, 'email', now));
    const org = this.#o.organization ?? { name: 'castpress', supportEmail: 'support@castpress.local' };
    const from = this.#o.mailFrom ?? `"${org.name} via castpress" <no-reply@castpress.local>`;
    const base = { id: event.id, from, packet, signer: s, org, url };
    return kind === 'etchComplete' ? composeCompleted(base) : composeSignatureRequest(base);
  }

  /** What a webhook outbox event delivers. */
  webhookOf(event: OutboxRecord): { url: string; action: string; data: unknown } {
    return { url: String(event.payload.url), action: String(event.payload.action), data: event.payload.data };
  }
}

// ——— helpers ———

function signerOf(s: SignerRecord): Signer {
  return { ...(s.signer as unknown as Signer), name: s.name ?? undefined, email: s.email ?? undefined };
}

function statusData(snap: Snapshot, s: SignerRecord): Record<string, unknown> {
  return {
    etchPacketEid: snap.packet.eid,
    documentGroupEid: snap.packet.groupEid,
    documentGroupStatus: redirectGroupStatus(snap.packet.status),
    signerEid: s.eid,
    aliasId: s.aliasId,
    signerStatus: s.status,
  };
}

function signersData(snap: Snapshot): Array<Record<string, unknown>> {
  return snap.signers.map((s) => ({ eid: s.eid, aliasId: s.aliasId, routingOrder: s.routingOrder, status: s.status }));
}

function sessionOf(snap: Snapshot, s: SignerRecord): SigningSession {
  return {
    packet: { eid: snap.packet.eid, name: snap.packet.name, status: snap.packet.status, isTest: snap.packet.isTest, signaturePageOptions: snap.packet.options.signaturePageOptions },
    signer: { eid: s.eid, aliasId: s.aliasId, name: s.name, email: s.email, status: s.status, signerType: s.signerType, options: s.signer },
    documents: snap.documents.map((d) => ({
      index: d.index,
      filename: d.filename,
      title: d.title,
      pageCount: d.pageCount,
      fields: (d.fields as Array<PlannedField | MergedField>).filter((f) => f.signerId === s.aliasId),
    })),
    boxes: snap.documents.flatMap((d) =>
      (d.fields as Array<PlannedField | MergedField>)
        .filter((f) => f.signerId === s.aliasId)
        .map((f) => ({ document: d.index, fieldId: fieldIdOf(f), type: f.type, page: fieldPageOf(f), rect: f.rect })),
    ),
    acceptEachField: acceptsEachField(s.signer),
    detailsRequired: detailsRequired(s.signer),
    event: {
      action: 'signerLoad',
      signerStatus: s.status,
      signerEid: s.eid,
      documentGroupStatus: redirectGroupStatus(snap.packet.status),
      documentGroupEid: snap.packet.groupEid,
      etchPacketEid: snap.packet.eid,
    },
    ...(typeof s.signer.redirectURL === 'string' ? { redirectURL: s.signer.redirectURL } : {}),
  };
}

/**
 * Outbox ids sort in the order events are made: a step's events share `createdAt`, and the stores deliver a
 * packet's events of one lane in (createdAt, id) order, one at a time (a retried event holds back the
 * ones after it), so a receiver sees the last signer's signerComplete before etchPacketComplete. The
 * monotonic clock's nanoseconds go first, then the random eid.
 */
function outboxEvent(packetEid: string, kind: OutboxRecord['kind'], payload: Record<string, unknown>, now: number): OutboxRecord {
  const order = process.hrtime.bigint().toString(36).padStart(13, '0');
  const id = `evt_${order}${newEid('').slice(1)}`;
  return { id, packetEid, kind, payload, status: 'pending', attempts: 0, nextAttemptAt: now, leaseUntil: 0, lastError: null, createdAt: now, deliveredAt: null };
}

/** A payload replaced, or merged per file and field; a null field value removes the field's data. */
export function mergePayload(current: PacketRecord['payload'], update: Record<string, unknown>, merge: boolean): PacketRecord['payload'] {
  const out: PacketRecord['payload'] = merge ? structuredClone(current) : {};
  for (const [fileId, raw] of Object.entries(update)) {
    if (raw === null) {
      delete out[fileId];
      continue;
    }
    if (typeof raw !== 'object' || Array.isArray(raw)) throw ValidationError.of(`payload.${fileId}`, 'Expected {data, filename?}');
    const p = raw as { data?: unknown; filename?: unknown };
    const data = p.data ?? {};
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw ValidationError.of(`payload.${fileId}.data`, 'Expected an object of field values');
    const target = out[fileId] ?? { data: {} };
    const nextData: Record<string, unknown> = merge ? { ...target.data } : {};
    for (const [field, value] of Object.entries(data as Record<string, unknown>)) {
      if (value === null) delete nextData[field];
      else nextData[field] = value;
    }
    out[fileId] = { data: nextData, ...(typeof p.filename === 'string' ? { filename: p.filename } : target.filename && merge ? { filename: target.filename } : {}) };
  }
  return out;
}

/** The request as stored: `data` left out (the payload is kept decrypted on its own), bytes kept as bytes. */
function storableRequest(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null) return {};
  const { data: _data, ...rest } = body as Record<string, unknown>;
  return rest;
}

