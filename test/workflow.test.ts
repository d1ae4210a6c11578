/**
 * The packet workflow end to end, once on the embedded store (SQLite) and once
 * on a real PostgreSQL server started here: every transition of the spec's table,
 * routing 1-1-2, pending signers skipped and activated, payload updates with and
 * without merge, tokens with a fake clock, webhooks through a receiver that fails
 * three times, mails through an SMTP sink, sealed documents checked by verifyPdf.
 */
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, ValidationError } from '../src/index.js';
import {
  createPacketWorkflow,
  openSqliteStore,
  PacketStateError,
  SignerError,
  smtpMailer,
  type PacketStore,
  type PacketWorkflow,
} from '../src/packets/index.js';
import { createSigningIdentity, verifyPdf, type SigningIdentity } from '../src/signing/index.js';
import { readText } from './helpers/pdf.js';
import { tempDir } from './helpers/signing.js';
import { linkIn, SmtpSink, tokenOf, until, WebhookReceiver, workflowStores } from './helpers/workflow.js';

const engine = createEngine({ now: () => new Date('2026-01-05T10:00:00Z') });
let identity: SigningIdentity;
let tmp: { dir: string; remove: () => Promise<void> };
let hooks: WebhookReceiver;
let smtp: SmtpSink;

beforeAll(async () => {
  tmp = await tempDir('castpress-workflow-');
  // The CA's clock matches the workflow's (2026-01-05): seals are made at the workflow's time, inside the certificate's validity.
  identity = await createSigningIdentity({
    dataDir: path.join(tmp.dir, 'identity'),
    clock: () => new Date('2026-01-05T10:00:00Z'),
  });
  hooks = await WebhookReceiver.start();
  smtp = await SmtpSink.start();
}, 60_000);

afterAll(async () => {
  const t = Date.now();
  const lap = (what: string) => process.env.WORKFLOW_DEBUG && console.log(what, Date.now() - t);
  await engine.close();
  lap('engine');
  await hooks?.close();
  lap('hooks');
  await smtp?.close();
  lap('smtp');
  await kinds.stop();
  lap('pg');
  await tmp?.remove();
}, 60_000);

const sig = (id: string, type: string, y: number) => ({
  id,
  type,
  pageNum: 0,
  rect: { x: 72, y, width: 200, height: 30 },
});
const drawn = {
  type: 'drawn' as const,
  strokes: [
    [
      { x: 0, y: 0 },
      { x: 30, y: 12 },
      { x: 60, y: 0 },
    ],
  ],
};

/** Two signers in round 1 (one email, one embedded), one email signer in round 2. */
function packetBody(extra: Record<string, unknown> = {}) {
  return {
    name: 'Lease 12B',
    isDraft: true,
    allowUpdates: true,
    signatureEmailSubject: 'Please sign the lease',
    signatureEmailBody: 'Thanks for renting with us.',
    files: [
      {
        id: 'lease',
        filename: 'lease.pdf',
        title: 'Lease',
        fields: [
          { heading: 'Lease' },
          { content: 'The tenant rents flat 12B.' },
          { id: 'rent', type: 'shortText', pageNum: 0, rect: { x: 72, y: 200, width: 200, height: 20 } },
          { id: 'deposit', type: 'shortText', pageNum: 0, rect: { x: 300, y: 200, width: 200, height: 20 } },
          sig('tenantSig', 'signature', 260),
          sig('cosignerSig', 'signature', 310),
          sig('landlordSig', 'signature', 360),
          sig('landlordDate', 'signatureDate', 410),
        ],
      },
    ],
    data: { payloads: { lease: { data: { rent: 'RENT-1200', deposit: 'DEPOSIT-2400' } } } },
    signers: [
      {
        id: 'tenant',
        name: 'Ada Tenant',
        email: 'ada@example.com',
        routingOrder: 1,
        fields: [{ fileId: 'lease', fieldId: 'tenantSig' }],
      },
      {
        id: 'cosigner',
        name: 'Bob Cosigner',
        email: 'bob@example.com',
        signerType: 'embedded',
        routingOrder: 1,
        fields: [{ fileId: 'lease', fieldId: 'cosignerSig' }],
      },
      {
        id: 'landlord',
        name: 'Lin Landlord',
        email: 'lin@example.com',
        routingOrder: 2,
        fields: [
          { fileId: 'lease', fieldId: 'landlordSig' },
          { fileId: 'lease', fieldId: 'landlordDate' },
        ],
      },
    ],
    ...extra,
  };
}

async function textOf(pdf: Uint8Array): Promise<string> {
  return (await readText(pdf)).map((p) => p.items.map((i) => i.str).join(' ')).join('\n');
}

const kinds = workflowStores(() => tmp.dir);

describe.each(kinds.stores)('packet workflow on the %s', (_name, open) => {
  let store: PacketStore;
  let flow: PacketWorkflow;
  let now = Date.parse('2026-01-05T10:00:00Z');
  const webhookToken = 'hook-token-1';
  const secret = 'hook-secret';

  beforeAll(async () => {
    // The sink and receiver are shared by both stores' runs: start each run with none of the other's.
    smtp.mails.length = 0;
    hooks.hits.length = 0;
    store = await open();
    flow = createPacketWorkflow({
      store,
      engine,
      identity,
      baseUrl: 'http://castpress.test',
      clock: () => new Date(now),
      // The one-seal flow (per-signer signatures are the default; test/per-signer-packet.test.ts covers those).
      signatures: 'seal',
      organization: { name: 'Acme Rentals', supportEmail: 'help@acme.test' },
      mailer: smtpMailer({ host: '127.0.0.1', port: smtp.port }),
      webhook: { url: hooks.url, token: webhookToken, secret, allowHosts: [hooks.host] },
      retry: { baseMs: 30, maxMs: 200, maxAttempts: 6 },
      pollMs: 50,
    });
  }, 90_000);

  afterAll(async () => {
    await flow?.close();
    await store?.close();
  });

  it('draft → sent → partial → complete in routing order 1-1-2, with mails, webhooks and a sealed result', async () => {
    const s = flow.service;
    const created = await s.createEtchPacket(packetBody());
    expect(created.status).toBe('draft');
    const [tenant, cosigner, landlord] = created.documentGroup.signers;
    expect(created.documentGroup.signers.map((x) => [x.aliasId, x.routingOrder, x.status])).toEqual([
      ['tenant', 1, 'draft'],
      ['cosigner', 1, 'draft'],
      ['landlord', 2, 'draft'],
    ]);
    // A draft asks no one; an embedded signer needs the send too.
    await expect(s.generateEtchSignURL({ signerEid: cosigner!.eid, clientUserId: 'u-7' })).rejects.toBeInstanceOf(
      PacketStateError,
    );

    const sent = await s.sendEtchPacket({ eid: created.eid });
    expect(sent.status).toBe('sent');
    const toAda = await until(
      () => smtp.to('ada@example.com'),
      (m) => m.length === 1,
    );
    expect(toAda).toHaveLength(1);
    expect(toAda[0]!.raw).toContain('Subject: Please sign the lease');
    expect(toAda[0]!.raw).toContain('Thanks for renting with us.');
    expect(toAda[0]!.raw).toMatch(/Reply-To: "?Acme Rentals"? <help@acme\.test>/);
    expect(smtp.to('bob@example.com')).toHaveLength(0); // embedded: no mail
    expect(smtp.to('lin@example.com')).toHaveLength(0); // round 2 waits

    // Round 2 may not sign yet, even with a valid link of its own... it has none; another signer's token is tokenInvalid.
    const adaLink = linkIn(toAda[0]!.raw);
    const foreign = await s.openSigning({ signerEid: landlord!.eid, token: adaLink.token }).catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(SignerError);
    expect((foreign as SignerError).errorType).toBe('tokenInvalid');
    const missing = await s.openSigning({ signerEid: 'sgn_nobody', token: adaLink.token }).catch((e: unknown) => e);
    expect((missing as SignerError).errorType).toBe('notFound');

    // The tenant opens (viewed) and signs: partial.
    const session = await s.openSigning(adaLink);
    expect(session.event).toMatchObject({ action: 'signerLoad', signerStatus: 'viewed', etchPacketEid: created.eid });
    expect(session.documents[0]!.fields.map((f) => f.fieldId)).toEqual(['tenantSig']);
    const first = await s.submitSigning({
      ...adaLink,
      inputs: { signature: drawn },
      ip: '203.0.113.9',
      userAgent: 'test',
    });
    expect(first).toMatchObject({
      action: 'signerComplete',
      signerStatus: 'completed',
      documentGroupStatus: 'partial',
      etchPacketEid: created.eid,
    });
    // Signing twice is refused and changes nothing.
    const twice = await s.submitSigning({ ...adaLink, inputs: { signature: drawn } }).catch((e: unknown) => e);
    expect((twice as SignerError).errorType).toBe('unknown');

    // The embedded co-signer: URL from generateEtchSignURL.
    const url = await s.generateEtchSignURL({ signerEid: cosigner!.eid, clientUserId: 'u-7' });
    expect(url).toMatch(/^http:\/\/castpress\.test\/sign\//);
    const second = await s.submitSigning({
      ...tokenOf(url),
      inputs: { signature: { type: 'typed', text: 'Bob Cosigner' } },
    });
    expect(second.documentGroupStatus).toBe('partial');
    expect(second.nextSignerEid).toBe(landlord!.eid);

    // Round 2 gets its mail only now.
    const toLin = await until(
      () => smtp.to('lin@example.com'),
      (m) => m.length === 1,
    );
    const third = await s.submitSigning({
      ...linkIn(toLin[0]!.raw),
      inputs: { signature: drawn, timeZone: 'America/New_York' },
    });
    expect(third).toMatchObject({ documentGroupStatus: 'completed', nextSignerEid: null });

    const done = await s.etchPacket({ eid: created.eid });
    expect(done.status).toBe('complete');
    expect(done.completedAt).not.toBeNull();
    expect(done.documentGroup.signers.map((x) => x.status)).toEqual(['completed', 'completed', 'completed']);
    expect(done.documentGroup.signers[1]!.signerTokens.find((t) => t.type === 'embedded')).toMatchObject({
      type: 'embedded',
      hasSigned: true,
      valid: false,
    });

    // Updates are refused once complete, and change nothing.
    const late = await s
      .updateEtchPacket({ eid: created.eid, payload: { lease: { data: { rent: 'X' } } } })
      .catch((e: unknown) => e);
    expect(late).toBeInstanceOf(PacketStateError);
    expect((await s.etchPacket({ eid: created.eid })).updatedAt).toBe(done.updatedAt);

    const [doc] = await s.groupDocuments(done.documentGroup.eid);
    const verified = await verifyPdf(doc!.pdf, {
      trustAnchors: [await readFile(identity.files!.rootCertificate, 'utf8')],
    });
    expect(verified.signatures).toHaveLength(1);
    expect(verified.signatures[0]).toMatchObject({ coversWholeDocument: true, valid: true });
    const text = await textOf(doc!.pdf);
    expect(text).toContain('RENT-1200');
    expect(text).toContain('Certificate of completion');
    expect(text).toContain('01/05/2026'); // the landlord's date, New York time

    // Webhooks: three signerComplete, one etchPacketComplete, each with the configured token and a valid HMAC.
    await flow.dispatcher.drain({ untilSettled: true });
    const mine = (action: string) => hooks.accepted(action).filter((h) => h.body.data.etchPacketEid === created.eid);
    expect(mine('signerComplete')).toHaveLength(3);
    expect(mine('etchPacketComplete')).toHaveLength(1);
    const complete = mine('etchPacketComplete')[0]!;
    expect(complete.body.token).toBe(webhookToken);
    expect(complete.body.data).toMatchObject({
      documentGroupEid: done.documentGroup.eid,
      documentGroupStatus: 'completed',
    });
    const [t, v1] = String(complete.headers['x-castpress-signature']).split(',');
    const seconds = t!.slice(2);
    expect(v1).toBe(`v1=${createHmac('sha256', secret).update(`${seconds}.${complete.raw}`).digest('hex')}`);
    // etchComplete mails to the email signers (enableEmails default).
    const completedMails = await until(
      () => smtp.mails.filter((m) => m.raw.includes('Subject: Completed: Lease 12B')),
      (m) => m.length >= 3,
    );
    expect(completedMails.map((m) => m.to[0]).sort()).toEqual([
      'ada@example.com',
      'bob@example.com',
      'lin@example.com',
    ]);
  }, 180_000);

  it('pending signers: skipped when their round has only pending signers, or activated by updateSigner', async () => {
    const s = flow.service;
    const body = packetBody({
      isDraft: false,
      signers: [
        {
          id: 'tenant',
          name: 'Ada Tenant',
          email: 'ada2@example.com',
          signerType: 'embedded',
          routingOrder: 1,
          fields: [{ fileId: 'lease', fieldId: 'tenantSig' }],
        },
        {
          id: 'cosigner',
          signerType: 'embedded',
          isPending: true,
          routingOrder: 2,
          fields: [{ fileId: 'lease', fieldId: 'cosignerSig' }],
        },
        { id: 'landlord', isPending: true, routingOrder: 3, fields: [{ fileId: 'lease', fieldId: 'landlordSig' }] },
      ],
    });
    const created = await s.createEtchPacket(body);
    expect(created.status).toBe('sent');
    const [tenant, cosigner, landlord] = created.documentGroup.signers;
    expect([cosigner!.status, landlord!.status]).toEqual(['pending', 'pending']);
    // Activation needs a name and an email.
    const bare = await s.updateSigner({ eid: landlord!.eid, activateIfPending: true }).catch((e: unknown) => e);
    expect(bare).toBeInstanceOf(ValidationError);
    expect((bare as ValidationError).fields.map((f) => f.property)).toEqual(['name', 'email']);
    await s.updateSigner({ eid: landlord!.eid, name: 'Lin Later', email: 'lin2@example.com', activateIfPending: true });

    await s.submitSigning({
      ...tokenOf(await s.generateEtchSignURL({ signerEid: tenant!.eid, clientUserId: 'u1' })),
      inputs: { signature: drawn },
    });
    const after = await s.etchPacket({ eid: created.eid });
    // Round 2 had only a pending signer: skipped; round 3 (activated) is current and was mailed.
    expect(after.documentGroup.signers.map((x) => x.status)).toEqual(['completed', 'skipped', 'sent']);
    const skipped = await s
      .updateSigner({ eid: cosigner!.eid, name: 'Too Late', email: 'late@example.com', activateIfPending: true })
      .catch((e: unknown) => e);
    expect(skipped).toBeInstanceOf(PacketStateError);
    const mail = await until(
      () => smtp.to('lin2@example.com'),
      (m) => m.length === 1,
    );
    const done = await s.submitSigning({ ...linkIn(mail[0]!.raw), inputs: { signature: drawn } });
    expect(done.documentGroupStatus).toBe('completed');
    const text = await textOf((await s.groupDocuments(after.documentGroup.eid))[0]!.pdf);
    expect(text).toContain('Lin Later');
    expect(text).not.toContain('Too Late');
  }, 180_000);

  it('updateEtchPacket replaces or merges the payload, re-renders, and keeps what earlier signers signed', async () => {
    const s = flow.service;
    const created = await s.createEtchPacket(
      packetBody({
        isDraft: false,
        signers: [
          {
            id: 'tenant',
            name: 'Ada Tenant',
            email: 'ada3@example.com',
            signerType: 'embedded',
            routingOrder: 1,
            fields: [{ fileId: 'lease', fieldId: 'tenantSig' }],
          },
          {
            id: 'landlord',
            name: 'Lin',
            email: 'lin3@example.com',
            signerType: 'embedded',
            routingOrder: 2,
            fields: [{ fileId: 'lease', fieldId: 'landlordSig' }],
          },
        ],
      }),
    );
    const [tenant, landlord] = created.documentGroup.signers;
    await s.submitSigning({
      ...tokenOf(await s.generateEtchSignURL({ signerEid: tenant!.eid, clientUserId: 'u1' })),
      inputs: { signature: { type: 'typed', text: 'Ada Tenant' } },
    });

    const merged = await s.updateEtchPacket({
      eid: created.eid,
      payload: { lease: { data: { rent: 'RENT-1300' } } },
      mergePayloads: true,
    });
    expect(merged.payload).toEqual({ lease: { data: { rent: 'RENT-1300', deposit: 'DEPOSIT-2400' } } });
    let text = await textOf((await s.groupDocuments(created.documentGroup.eid))[0]!.pdf);
    expect(text).toContain('RENT-1300');
    expect(text).toContain('DEPOSIT-2400');
    expect(text).not.toContain('RENT-1200');
    expect(text).toContain('Ada Tenant'); // the tenant's typed signature, kept

    const removed = await s.updateEtchPacket({
      eid: created.eid,
      payload: { lease: { data: { deposit: null } } },
      mergePayloads: true,
    });
    expect(removed.payload).toEqual({ lease: { data: { rent: 'RENT-1300' } } });
    const replaced = await s.updateEtchPacket({
      eid: created.eid,
      name: 'Lease 12B (v2)',
      payload: { lease: { data: { deposit: 'DEPOSIT-9' } } },
    });
    expect(replaced.payload).toEqual({ lease: { data: { deposit: 'DEPOSIT-9' } } });
    expect(replaced.name).toBe('Lease 12B (v2)');
    text = await textOf((await s.groupDocuments(created.documentGroup.eid))[0]!.pdf);
    expect(text).not.toContain('RENT-1300');
    expect(text).toContain('DEPOSIT-9');
    expect(text).toContain('Ada Tenant');
    expect(replaced.documentGroup.signers[0]!.status).toBe('completed'); // no need to sign again

    // A signer who has not signed may be renamed; one who signed may not.
    expect(await s.updateSigner({ eid: landlord!.eid, name: 'Lin Renamed' })).toMatchObject({ name: 'Lin Renamed' });
    await expect(s.updateSigner({ eid: tenant!.eid, name: 'Someone Else' })).rejects.toBeInstanceOf(PacketStateError);
    // Without allowUpdates the payload cannot change.
    const fixed = await s.createEtchPacket(packetBody({ allowUpdates: false }));
    await expect(s.updateEtchPacket({ eid: fixed.eid, payload: { lease: { data: {} } } })).rejects.toBeInstanceOf(
      PacketStateError,
    );
  }, 180_000);

  it('a signer whose page was opened before the documents were made again cannot sign them unseen (409 on documentsVersion)', async () => {
    const s = flow.service;
    const created = await s.createEtchPacket(
      packetBody({
        isDraft: false,
        signers: [
          {
            id: 'tenant',
            name: 'Ada Seen',
            email: 'ada-seen@example.com',
            signerType: 'embedded',
            fields: [{ fileId: 'lease', fieldId: 'tenantSig' }],
          },
        ],
      }),
    );
    const tenant = created.documentGroup.signers[0]!;
    const link = tokenOf(await s.generateEtchSignURL({ signerEid: tenant.eid, clientUserId: 'u-seen' }));
    const before = await s.openSigning(link);
    expect(before.documentsVersion).toMatch(/^[0-9a-f]{32}$/);
    // Opening again shows the same documents: the same version.
    expect((await s.openSigning(link)).documentsVersion).toBe(before.documentsVersion);
    // The operator changes the payload while the page is open: the documents are made again.
    await s.updateEtchPacket({ eid: created.eid, payload: { lease: { data: { rent: 'RENT-SEEN' } } } });
    const stale = await s
      .submitSigning({ ...link, inputs: { signature: drawn }, documentsVersion: before.documentsVersion })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(PacketStateError);
    expect((stale as PacketStateError).fields[0]!.property).toBe('documentsVersion');
    expect((await s.etchPacket({ eid: created.eid })).documentGroup.signers[0]!.status).not.toBe('completed');
    // After a reload the page shows (and sends) the new version, and signing goes through.
    const after = await s.openSigning(link);
    expect(after.documentsVersion).not.toBe(before.documentsVersion);
    const done = await s.submitSigning({
      ...link,
      inputs: { signature: drawn },
      documentsVersion: after.documentsVersion,
    });
    expect(done.action).toBe('signerComplete');
    expect(await textOf((await s.groupDocuments(created.documentGroup.eid))[0]!.pdf)).toContain('RENT-SEEN');
  }, 180_000);

  it('tokens: lifetimes from tokenValidForMinutes on a fake clock, regenerating restarts them, expireSignerTokens ends them', async () => {
    const s = flow.service;
    const created = await s.createEtchPacket(
      packetBody({
        isDraft: false,
        signers: [
          {
            id: 'tenant',
            name: 'Ada',
            email: 'ada4@example.com',
            signerType: 'embedded',
            tokenValidForMinutes: 30,
            fields: [{ fileId: 'lease', fieldId: 'tenantSig' }],
          },
        ],
      }),
    );
    const signer = created.documentGroup.signers[0]!;
    const start = now;
    try {
      const link = tokenOf(await s.generateEtchSignURL({ signerEid: signer.eid, clientUserId: 'u1' }));
      now = start + 29 * 60_000;
      await s.openSigning(link); // still valid
      now = start + 31 * 60_000;
      const expired = await s.openSigning(link).catch((e: unknown) => e);
      expect((expired as SignerError).errorType).toBe('tokenExpired');
      const fresh = tokenOf(await s.generateEtchSignURL({ signerEid: signer.eid, clientUserId: 'u1' }));
      now = start + 60 * 60_000; // 29 minutes into the new token
      await s.openSigning(fresh);
      expect((await s.expireSignerTokens({ signerEid: signer.eid })).expired).toBe(1);
      expect(((await s.openSigning(fresh).catch((e: unknown) => e)) as SignerError).errorType).toBe('tokenExpired');
      const view = await s.etchPacket({ eid: created.eid });
      expect(view.documentGroup.signers[0]!.signerTokens.map((t) => t.valid)).toEqual([false, false]);
      // Bad arguments are typed errors on the argument's name.
      const bad = await s.generateEtchSignURL({ signerEid: signer.eid }).catch((e: unknown) => e);
      expect((bad as ValidationError).fields[0]!.property).toBe('clientUserId');
    } finally {
      now = start;
    }
  }, 120_000);

  it('a webhook receiver that fails three times gets the fourth delivery, with the same event id', async () => {
    await flow.dispatcher.drain({ untilSettled: true }); // earlier tests' events must not take the failures
    hooks.failFirst = 3;
    const before = hooks.hits.length;
    const created = await flow.service.createEtchPacket(
      packetBody({
        isDraft: false,
        signers: [
          {
            id: 'tenant',
            name: 'Ada',
            email: 'ada5@example.com',
            signerType: 'embedded',
            fields: [{ fileId: 'lease', fieldId: 'tenantSig' }],
          },
        ],
      }),
    );
    const signer = created.documentGroup.signers[0]!;
    await flow.service.openSigning(
      tokenOf(await flow.service.generateEtchSignURL({ signerEid: signer.eid, clientUserId: 'u' })),
    );
    await flow.dispatcher.drain({ untilSettled: true });
    const attempts = hooks.hits
      .slice(before)
      .filter((h) => h.body.action === 'signerUpdateStatus' && h.body.data.signerEid === signer.eid);
    expect(attempts.map((h) => h.status)).toEqual([500, 500, 500, 200]);
    expect(new Set(attempts.map((h) => h.headers['x-castpress-event-id'])).size).toBe(1);
    expect(attempts[3]!.body.data).toMatchObject({ signerStatus: 'viewed', etchPacketEid: created.eid });
    const events = await store.outbox({ packetEid: created.eid, kind: 'webhook' });
    expect(events[0]).toMatchObject({ status: 'delivered', attempts: 4 });
  }, 60_000);

  it("delivers a packet's webhooks in order, one at a time: a failing signerComplete holds back etchPacketComplete", async () => {
    const created = await flow.service.createEtchPacket(
      packetBody({
        isDraft: false,
        signers: [
          {
            id: 'tenant',
            name: 'Ada',
            email: 'ada6@example.com',
            signerType: 'embedded',
            fields: [{ fileId: 'lease', fieldId: 'tenantSig' }],
          },
        ],
      }),
    );
    const signer = created.documentGroup.signers[0]!;
    const link = tokenOf(await flow.service.generateEtchSignURL({ signerEid: signer.eid, clientUserId: 'u' }));
    await flow.service.openSigning(link);
    await flow.dispatcher.drain({ untilSettled: true });
    hooks.failFirst = 2;
    const before = hooks.hits.length;
    // One step makes both events: the last signer's signerComplete and the packet's etchPacketComplete.
    await flow.service.submitSigning({ ...link, inputs: { signature: drawn } });
    await flow.dispatcher.drain({ untilSettled: true });
    const seen = hooks.hits
      .slice(before)
      .filter((h) => h.body.data.etchPacketEid === created.eid || h.body.data.eid === created.eid);
    expect(seen.map((h) => `${h.body.action} ${h.status}`)).toEqual([
      'signerComplete 500',
      'signerComplete 500',
      'signerComplete 200',
      'etchPacketComplete 200',
    ]);
  }, 60_000);
});

describe('packet workflow: mail without a server, and a dead mail server', () => {
  it('writes .eml files when no mailer is given; sendEtchPacket on a sent packet mails the current signer again, with a new link', async () => {
    const store = await openSqliteStore({ dir: path.join(tmp.dir, 'eml-store') });
    const mailDir = path.join(tmp.dir, 'eml');
    const flow = createPacketWorkflow({
      store,
      engine,
      identity,
      baseUrl: 'http://castpress.test',
      mailDir,
      deliver: false,
    });
    try {
      const created = await flow.service.createEtchPacket(packetBody({ isDraft: false }));
      await flow.service.sendEtchPacket({ eid: created.eid }); // re-notifies round 1's email signer
      await flow.dispatcher.drain({ untilSettled: true });
      const { readdir } = await import('node:fs/promises');
      const files = (await readdir(mailDir)).filter((f) => f.endsWith('.eml'));
      const mails = await Promise.all(files.map((f) => readFile(path.join(mailDir, f), 'utf8')));
      const toAda = mails.filter((m) => /^To: ada@example\.com$/m.test(m));
      expect(toAda).toHaveLength(2);
      expect(mails.some((m) => /^To: lin@example\.com$/m.test(m))).toBe(false);
      const [a, b] = toAda.map(linkIn);
      expect(a!.signerEid).toBe(b!.signerEid);
      expect(a!.token).not.toBe(b!.token);
      // Both links work until they expire.
      await flow.service.openSigning(a!);
      await flow.service.openSigning(b!);
    } finally {
      await flow.close();
      await store.close();
    }
  }, 60_000);

  it('a mail server that accepts no connection does not hold up webhooks; its mails end as failed after the capped retries', async () => {
    const store = await openSqliteStore({ dir: path.join(tmp.dir, 'dead-smtp') });
    const receiver = await WebhookReceiver.start();
    // A port with no listener: every SMTP attempt is refused.
    const { freePort } = await import('./helpers/redis.js');
    const flow = createPacketWorkflow({
      store,
      engine,
      identity,
      baseUrl: 'http://castpress.test',
      mailer: smtpMailer({ host: '127.0.0.1', port: await freePort(), timeoutMs: 2_000 }),
      webhook: { url: receiver.url, token: 't', allowHosts: [receiver.host] },
      retry: { baseMs: 20, maxMs: 50, maxAttempts: 3 },
      pollMs: 20,
    });
    try {
      const created = await flow.service.createEtchPacket(packetBody({ isDraft: false }));
      const cosigner = created.documentGroup.signers[1]!;
      await flow.service.openSigning(
        tokenOf(await flow.service.generateEtchSignURL({ signerEid: cosigner.eid, clientUserId: 'u' })),
      );
      const hits = await until(
        () => receiver.accepted('signerUpdateStatus'),
        (h) => h.length === 1,
        10_000,
      );
      expect(hits).toHaveLength(1);
      const failed = await until(
        () => store.outbox({ packetEid: created.eid, kind: 'email', status: 'failed' }),
        (e) => e.length === 1,
        20_000,
      );
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ attempts: 3 });
      expect(failed[0]!.lastError).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      await flow.close();
      await store.close();
      await receiver.close();
    }
  }, 60_000);
});

describe('packet workflow: webhook addresses', () => {
  it('refuses a loopback webhook URL unless its host is allowed: 0 hits, the event ends failed with the reason', async () => {
    const store = await openSqliteStore({ dir: path.join(tmp.dir, 'hook-guard') });
    const receiver = await WebhookReceiver.start();
    const flow = createPacketWorkflow({
      store,
      engine,
      identity,
      baseUrl: 'http://castpress.test',
      deliver: false,
      mailDir: path.join(tmp.dir, 'hook-guard-mail'),
      webhook: { url: receiver.url, token: 't' },
      retry: { baseMs: 5, maxMs: 10, maxAttempts: 2 },
    });
    try {
      const created = await flow.service.createEtchPacket(
        packetBody({
          isDraft: false,
          signers: [
            {
              id: 'tenant',
              name: 'Ada',
              email: 'ada@example.com',
              signerType: 'embedded',
              fields: [{ fileId: 'lease', fieldId: 'tenantSig' }],
            },
          ],
        }),
      );
      await flow.service.openSigning(
        tokenOf(
          await flow.service.generateEtchSignURL({
            signerEid: created.documentGroup.signers[0]!.eid,
            clientUserId: 'u',
          }),
        ),
      );
      await flow.dispatcher.drain({ untilSettled: true });
      const events = await store.outbox({ packetEid: created.eid, kind: 'webhook' });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ status: 'failed', attempts: 2 });
      expect(events[0]!.lastError).toMatch(/not a public address/);
      expect(receiver.hits).toHaveLength(0);
    } finally {
      await flow.close();
      await store.close();
      await receiver.close();
    }
  }, 60_000);
});
