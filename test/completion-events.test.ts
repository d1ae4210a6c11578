/**
 * Certificate of completion as an audit trail: per signer the events (created, viewed,
 * signed) with time, IP, user agent and time zone, and the consent text the signing page showed.
 * Read back with pdfjs from the sealed certificate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { DEFAULT_SIGN_CONSENT_TEXT, sha256Of, type PacketWorkflow } from '../src/packets/index.js';
import type { SigningIdentity } from '../src/signing/index.js';
import { openTestWorkflow, squash, squashedText, type TestWorkflow } from './helpers/packet-serve.js';
import { tokenOf } from './helpers/workflow.js';

const engine = createEngine();
let setup: TestWorkflow;
let flow: PacketWorkflow;
let identity: SigningIdentity;

beforeAll(async () => {
  setup = await openTestWorkflow('castpress-events-', engine, { signatures: 'seal' });
  ({ flow, identity } = setup);
}, 60_000);
afterAll(async () => {
  await setup?.close();
  await engine.close();
});

const box = (id: string, y: number) => ({
  id,
  type: 'signature',
  pageNum: 0,
  rect: { x: 72, y, width: 200, height: 30 },
});

describe('the certificate of completion as an audit trail', () => {
  it('lists each signer’s events with IP, user agent and time zone, and the consent text', async () => {
    const s = flow.service;
    const created = await s.createEtchPacket({
      name: 'Events',
      signaturePageOptions: { signConsentText: 'I, {{signer.name}}, consent to sign {{packet.name}} electronically.' },
      files: [
        { id: 'm', filename: 'm.pdf', title: 'Terms', fields: [{ content: 'Agreed.' }, box('a', 300), box('b', 360)] },
      ],
      signers: [
        {
          id: 'a',
          name: 'Ada First',
          email: 'ada@example.com',
          signerType: 'embedded',
          routingOrder: 1,
          fields: [{ fileId: 'm', fieldId: 'a' }],
        },
        {
          id: 'b',
          name: 'Bo Last',
          email: 'bo@example.com',
          signerType: 'embedded',
          routingOrder: 2,
          fields: [{ fileId: 'm', fieldId: 'b' }],
        },
      ],
    });
    const signers = created.documentGroup.signers;
    const seen = [
      { name: 'Ada First', ip: '127.0.0.7', userAgent: 'events-agent-ada', timeZone: 'Europe/Paris' },
      { name: 'Bo Last', ip: '127.0.0.9', userAgent: 'events-agent-bo', timeZone: 'America/New_York' },
    ];
    for (const [i, signer] of signers.entries()) {
      const who = seen[i]!;
      const url = await s.generateEtchSignURL({ signerEid: signer.eid, clientUserId: signer.eid });
      await s.submitSigning({
        ...tokenOf(url),
        inputs: { signature: { type: 'typed', text: who.name }, timeZone: who.timeZone },
        ip: who.ip,
        userAgent: who.userAgent,
      });
    }
    const [doc] = await s.groupDocuments(created.documentGroup.eid);
    // The certificate: the pages after the document's one.
    const certificate = await squashedText(doc!.pdf, 1);
    expect(certificate).toContain(squash('Certificate of completion'));
    expect(certificate).not.toContain(squash(DEFAULT_SIGN_CONSENT_TEXT));
    for (const who of seen) {
      expect(certificate).toContain(squash(`I, ${who.name}, consent to sign Events electronically.`));
      // The signed event's row: time, IP, user agent, time zone.
      expect(certificate).toMatch(
        new RegExp(
          `signed\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z${who.ip.replace(/\./g, '\\.')}${who.userAgent}${who.timeZone}`,
        ),
      );
    }
    expect(certificate.match(/created\d{4}-/g)?.length).toBe(2);
    expect(certificate.match(/viewed\d{4}-/g)?.length).toBe(2);
    // The sealing certificate's fingerprint (one-seal mode: the seal is every signer's certificate).
    expect(certificate).toContain(sha256Of(identity.certificate));
  }, 180_000);
});
