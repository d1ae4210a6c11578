/**
 * The demo's signature packet through the library workflow: create (template, tagged
 * upload, Markdown), sign for both signers (drawn from a recorded stroke, then typed), complete,
 * write the sealed documents (each ends with its certificate of completion) into out/packet/, and
 * verify every signature against the local CA's root.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine, MemoryTemplateStore } from '../src/index.js';
import { createPacketWorkflow, openSqliteStore } from '../src/api/packets.js';
import { createSigningIdentity, verifyPdf, type SigningIdentity } from '../src/api/signing.js';
import { letterTemplate, orderForm, packetBody, RECORDED_STROKES } from '../examples/demo-packet.js';

export interface PacketDemoResult {
  /** The files written, relative to the output folder's parent. */
  files: string[];
  /** One line per signature, e.g. `order-form.pdf  signature 1  valid  (castpress local signer …)`. */
  report: string[];
  valid: boolean;
}

/** The signer's eid and token from a signing link (`…/sign/{eid}?token=…`). */
export function linkParts(url: string): { signerEid: string; token: string } {
  const u = new URL(url);
  return { signerEid: decodeURIComponent(u.pathname.split('/').pop() ?? ''), token: u.searchParams.get('token') ?? '' };
}

/** A template store holding the demo's letter. */
export async function demoTemplates(): Promise<MemoryTemplateStore> {
  const templates = new MemoryTemplateStore();
  templates.publish(await letterTemplate());
  return templates;
}

/** The local CA (made on first run in `dataDir`) and its root, the trust anchor verification needs. */
export async function demoIdentity(dataDir: string): Promise<{ identity: SigningIdentity; root: string }> {
  const identity = await createSigningIdentity({ dataDir });
  const rootFile = identity.files?.rootCertificate;
  if (!rootFile) throw new Error('The local signing identity has no root certificate file');
  return { identity, root: await readFile(rootFile, 'utf8') };
}

/** Verification in a few lines: one per signature, valid or the problems. */
export async function verificationLines(
  docs: ReadonlyArray<{ filename: string; pdf: Uint8Array }>,
  root: string,
): Promise<{ report: string[]; valid: boolean }> {
  const report: string[] = [];
  let valid = docs.length > 0;
  for (const doc of docs) {
    const result = await verifyPdf(doc.pdf, { trustAnchors: [root] });
    valid &&= result.valid && result.signatures.length > 0;
    for (const s of result.signatures)
      report.push(
        `${doc.filename}  ${s.kind === 'signature' ? 'signature' : 'timestamp'} ${s.index + 1}  ${s.valid ? 'valid' : 'NOT valid'}` +
          `  (${s.signer?.commonName ?? 'unknown signer'}${s.coversWholeDocument ? ', whole document' : ''})` +
          (s.valid ? '' : `: ${s.problems.join('; ')}`),
      );
    if (result.signatures.length === 0) report.push(`${doc.filename}  NOT valid: no signature`);
  }
  return { report, valid };
}

/** Runs the packet demo into `outDir` (e.g. out/packet); its store and CA live in `dataDir`. */
export async function runPacketDemo(outDir: string, dataDir: string): Promise<PacketDemoResult> {
  const engine = createEngine({ templates: await demoTemplates() });
  const { identity, root } = await demoIdentity(dataDir);
  // A fresh store each run: the demo's packet is the only one.
  await rm(path.join(dataDir, 'packets'), { recursive: true, force: true });
  const store = await openSqliteStore({ dir: path.join(dataDir, 'packets') });
  const flow = createPacketWorkflow({
    store,
    engine,
    identity,
    baseUrl: 'http://127.0.0.1:8080',
    mailDir: path.join(dataDir, 'mail'),
    // Embedded signers get no mail and no webhook is set: nothing to deliver.
    deliver: false,
  });
  try {
    const s = flow.service;
    const created = await s.createEtchPacket(packetBody(await orderForm()));
    const signers = created.documentGroup.signers;
    const link = async (alias: string) => {
      const signer = signers.find((x) => x.aliasId === alias);
      if (!signer) throw new Error(`No signer ${alias}`);
      return linkParts(await s.generateEtchSignURL({ signerEid: signer.eid, clientUserId: `demo-${alias}` }));
    };
    const strokes = RECORDED_STROKES.map((stroke) => stroke.map((p) => ({ ...p })));
    await s.submitSigning({ ...(await link('client')), inputs: { signature: { type: 'drawn', strokes } } });
    const last = await s.submitSigning({
      ...(await link('provider')),
      inputs: {
        signature: { type: 'typed', text: 'Bob Provider' },
        initials: { type: 'typed', text: 'BP' },
      },
    });
    if (last.documentGroupStatus !== 'completed')
      throw new Error(`The packet is ${last.documentGroupStatus ?? 'not complete'} after both signers signed`);

    const docs = await s.groupDocuments(created.documentGroup.eid);
    await rm(outDir, { recursive: true, force: true });
    await mkdir(outDir, { recursive: true });
    const files: string[] = [];
    for (const doc of docs) {
      await writeFile(path.join(outDir, doc.filename), doc.pdf);
      files.push(path.join(path.basename(outDir), doc.filename));
    }
    return { files, ...(await verificationLines(docs, root)) };
  } finally {
    await flow.close();
    await store.close();
    await engine.close();
  }
}
