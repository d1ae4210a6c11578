/**
 * Safe names and static documents, through a castpress server on loopback: hostile
 * `files[].filename`s come back as clean, unique zip entries and per-file download names; an upload
 * carrying JavaScript, automatic and launch actions and an embedded file is neutralised before
 * assembly (a warning on the packet) and the sealed download holds none of it and still validates;
 * signer input is bounded in depth and size and typed text is stripped of control and bidi characters.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PacketBackend } from '../src/server/graphql/index.js';
import { pageText } from './helpers/pdf.js';
import { activeContentPdf, activeMarkersIn } from './helpers/active-pdf.js';
import { pdfsig, tempDir, tool } from './helpers/signing.js';
import { startSigningServer } from './helpers/signing-page.js';
import { tokenOf } from './helpers/workflow.js';
import { basic, PROD_KEY, type TestServer } from './server-setup.js';

let server: TestServer;
let backend: PacketBackend;
let tmp: { dir: string; remove: () => Promise<void> };

beforeAll(async () => {
  tmp = await tempDir('castpress-static-docs-');
  ({ server, backend } = await startSigningServer(tmp.dir));
}, 60_000);

afterAll(async () => {
  await server?.close();
  await tmp?.remove();
}, 60_000);

const auth = { authorization: basic(PROD_KEY) };

type GqlAnswer = {
  data?: Record<string, any>;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
};

async function graphql(
  query: string,
  variables: Record<string, unknown>,
): Promise<{ status: number; body: GqlAnswer }> {
  const res = await fetch(`${server.base}/graphql`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as GqlAnswer };
}

const CREATE = `mutation($name: String, $files: [EtchFile!], $signers: [JSON!]){ createEtchPacket(name: $name, files: $files, signers: $signers){
  eid warnings documentGroup { eid files signers { eid } } } }`;

/** Signs the packet's one signer (a typed signature) and returns its group eid and files once complete. */
async function signAll(
  created: { eid: string; documentGroup: { eid: string; signers: Array<{ eid: string }> } },
  text = 'Ada Signer',
) {
  for (const s of created.documentGroup.signers) {
    const url = await backend.service.generateEtchSignURL({ signerEid: s.eid, clientUserId: 'u1' });
    await backend.service.submitSigning({ ...tokenOf(url), inputs: { signature: { type: 'typed', text } } });
  }
  const done = await backend.service.etchPacket({ eid: created.eid });
  expect(done.status).toBe('complete');
  return done;
}

const signatureField = { id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 200, width: 200, height: 40 } };
const signer = (fileId: string) => ({
  id: 's1',
  name: 'Ada Signer',
  email: 'ada@example.com',
  signerType: 'embedded',
  acceptEachField: false,
  fields: [{ fileId, fieldId: 'sig' }],
});
const NAME_RULE = /[\\/:\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]|\.\.|^\./u;

describe('zip-slip names', () => {
  it('hostile files[].filename become clean, unique zip entries; each downloadURL serves its own document', async () => {
    const hostile = [
      '../../../etc/evil.pdf',
      '/abs/path.pdf',
      'C:\\win\\evil.pdf',
      '..\\..\\evil.pdf',
      `${'n'.repeat(5004)}.pdf`,
      'evil.pdf\u0000.exe',
      'invoice\u202Efdp.exe.pdf',
      'Same.pdf',
      'same.pdf',
    ];
    const files = hostile.map((filename, i) => ({
      id: `f${i}`,
      filename,
      title: `File ${i}`,
      fields: [{ content: `Document number ${i}` }, ...(i === 0 ? [signatureField] : [])],
    }));
    const created = await graphql(CREATE, { name: 'Names', files, signers: [signer('f0')] });
    expect(created.status, JSON.stringify(created.body.errors)).toBe(200);
    const packet = created.body.data!.createEtchPacket;
    const listed: string[] = packet.documentGroup.files.map((f: { filename: string }) => f.filename);
    expect(listed.slice(0, 4)).toEqual(['_._._etc_evil.pdf', '_abs_path.pdf', 'C__win_evil.pdf', '_._evil.pdf']);
    expect(listed.slice(5)).toEqual(['evil.pdf .exe.pdf', 'invoicefdp.exe.pdf', 'Same.pdf', 'same (2).pdf']);
    const done = await signAll(packet);

    const zip = await fetch(`${server.base}/api/document-group/${done.documentGroup.eid}.zip`, { headers: auth });
    expect(zip.status).toBe(200);
    const entries = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    expect(Object.keys(entries)).toEqual(listed);
    for (const name of Object.keys(entries)) {
      expect(name).not.toMatch(NAME_RULE);
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
      expect(name.endsWith('.pdf')).toBe(true);
    }
    // Each listed URL reaches its own document (the two names differing only in case included).
    for (const [k, f] of (done.documentGroup.files as Array<{ filename: string; downloadURL: string }>).entries()) {
      const one = await fetch(f.downloadURL, { headers: auth });
      expect(one.status, f.downloadURL).toBe(200);
      expect(Buffer.from(await one.arrayBuffer()).equals(Buffer.from(entries[listed[k]!]!))).toBe(true);
      expect(one.headers.get('content-disposition')).toMatch(/^attachment; filename="[^"\\/]+\.pdf"/);
    }
  }, 120_000);
});

describe('signer input', () => {
  /** A sent packet of one Markdown file with a signature box for one embedded signer; its signing URL's eid and token. */
  async function signing(extra: Record<string, unknown> = {}) {
    const created = await backend.service.createEtchPacket({
      name: 'Input',
      files: [{ id: 'doc', filename: 'doc.pdf', title: 'Doc', fields: [{ content: 'Sign below.' }, signatureField] }],
      signers: [{ ...signer('doc'), ...extra }],
    });
    const url = await backend.service.generateEtchSignURL({
      signerEid: created.documentGroup.signers[0]!.eid,
      clientUserId: 'u1',
    });
    return { created, ...tokenOf(url) };
  }
  const post = (signerEid: string, route: 'submit' | 'details', body: string) =>
    fetch(`${server.base}/sign/${signerEid}/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });

  it('a key nested 20,000 levels deep is a typed 400 naming body (was a 500), on the signing routes and /graphql; a large submission is a 413', async () => {
    const { created, signerEid, token } = await signing();
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    for (const body of [
      `{"token":${JSON.stringify(token)},"signature":{"type":"typed","text":"Ada","x":${deep}}}`,
      `{"token":${JSON.stringify(token)},"signature":{"type":"drawn","strokes":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`,
    ]) {
      const res = await post(signerEid, 'submit', body);
      const answer = (await res.json()) as { name?: string; fields?: Array<{ property: string; message: string }> };
      expect(res.status, JSON.stringify(answer).slice(0, 300)).toBe(400);
      expect(answer.name).toBe('ValidationError');
      expect(answer.fields?.[0]?.property).toBe('body');
      expect(answer.fields?.[0]?.message).toMatch(/deeper than 64/);
    }
    // Details bodies are small (16 KiB): 100 levels fit.
    const details = await post(
      signerEid,
      'details',
      `{"token":${JSON.stringify(token)},"name":${'['.repeat(100)}${']'.repeat(100)}}`,
    );
    expect(details.status).toBe(400);
    expect(((await details.json()) as { fields: Array<{ property: string }> }).fields[0]!.property).toBe('body');
    const gql = await fetch(`${server.base}/graphql`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: `{"query":"{ __typename }","variables":{"x":${deep}}}`,
    });
    expect(gql.status).toBe(400);
    expect(
      ((await gql.json()) as { errors: Array<{ extensions: { fields: Array<{ property: string }> } }> }).errors[0]!
        .extensions.fields[0]!.property,
    ).toBe('body');
    // 64 levels are still fine (the submission is refused for its content, not its shape).
    const at64 = await post(
      signerEid,
      'submit',
      `{"token":${JSON.stringify(token)},"signature":{"type":"typed","text":"Ada","x":${'['.repeat(62)}${']'.repeat(62)}}}`,
    );
    expect(at64.status).toBe(200);

    const { signerEid: other, token: t2 } = await signing();
    const big = await post(
      other,
      'submit',
      JSON.stringify({ token: t2, signature: { type: 'typed', text: 'Ada' }, padding: 'x'.repeat(3 * 1024 * 1024) }),
    );
    expect(big.status).toBe(413);
    expect(((await big.json()) as { fields: Array<{ property: string }> }).fields[0]!.property).toBe('body');
    expect((await backend.service.etchPacket({ eid: created.eid })).status).toBe('complete');
  }, 60_000);

  it('a typed signature of only NUL and a right-to-left override is refused; control and bidi characters are stripped from typed text and names', async () => {
    const { created, signerEid, token } = await signing({ allowNameChange: true });
    const empty = await post(
      signerEid,
      'submit',
      JSON.stringify({ token, signature: { type: 'typed', text: '\u0000\u202E' } }),
    );
    const refused = (await empty.json()) as { event: { errorType: string; message: string } };
    expect(empty.status, JSON.stringify(refused)).toBe(400);
    expect(refused.event.message).toMatch(/Must not be empty/);
    expect((await backend.service.etchPacket({ eid: created.eid })).status).toBe('sent');

    // Names: an empty one refused, a hostile one cleaned; an email with a bidi override is not an address.
    expect((await post(signerEid, 'details', JSON.stringify({ token, name: '\u202E\u0000\u200B' }))).status).toBe(400);
    expect((await post(signerEid, 'details', JSON.stringify({ token, email: 'ada\u202E@example.com' }))).status).toBe(
      400,
    );
    expect((await post(signerEid, 'details', JSON.stringify({ token, name: 'Ada\u202E Lovelace\u0000' }))).status).toBe(
      200,
    );
    const view = await backend.service.etchPacket({ eid: created.eid });
    expect(view.documentGroup.signers[0]!.name).toBe('Ada Lovelace');

    const ok = await post(
      signerEid,
      'submit',
      JSON.stringify({ token, signature: { type: 'typed', text: '\u202Eeci\u0000lA\u200B' } }),
    );
    expect(ok.status, await ok.clone().text()).toBe(200);
    const done = await backend.service.etchPacket({ eid: created.eid });
    expect(done.status).toBe('complete');
    const [doc] = await backend.service.groupDocuments(done.documentGroup.eid);
    const text = (await pageText(doc!.pdf)).join('\n');
    expect(text).toContain('eci lA');
    expect(text).not.toMatch(/[\u0000\u202E\u200B]/);
  }, 60_000);
});

describe('active content in uploads', () => {
  it('OpenAction JavaScript, page /AA, a Launch link, embedded payload.exe and XFA are removed with a warning; the sealed download holds none of them and validates', async () => {
    const upload = await activeContentPdf();
    // The upload really carries them (uncompressed, so the bytes show it).
    expect(activeMarkersIn(upload)).toEqual(
      expect.arrayContaining(['app.alert', '/Launch', 'payload.exe', '/OpenAction', '/AA', '/XFA', '/FileAttachment']),
    );
    const file = {
      data: Buffer.from(upload).toString('base64'),
      filename: 'contract.pdf',
      mimetype: 'application/pdf',
    };
    const created = await graphql(CREATE, {
      name: 'Hostile upload',
      files: [{ id: 'up', title: 'Contract', file, fields: [signatureField] }],
      signers: [signer('up')],
    });
    expect(created.status, JSON.stringify(created.body.errors)).toBe(200);
    const packet = created.body.data!.createEtchPacket;
    expect(packet.warnings).toHaveLength(1);
    expect(packet.warnings[0]).toMatch(/^files\[0\]\.file: removed active content: /);
    for (const what of [
      'XFA form',
      'OpenAction JavaScript',
      'embedded files',
      'page 1 /AA',
      'page 1 Link Launch action',
    ])
      expect(packet.warnings[0]).toContain(what);
    // The warning stays on the packet.
    const read = await graphql('query($eid: String!){ etchPacket(eid: $eid){ warnings } }', { eid: packet.eid });
    expect(read.body.data!.etchPacket.warnings).toEqual(packet.warnings);

    const done = await signAll(packet);
    const zip = await fetch(`${server.base}/api/document-group/${done.documentGroup.eid}.zip`, { headers: auth });
    expect(zip.status).toBe(200);
    const entries = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    const sealed = entries['contract.pdf']!;
    expect(sealed).toBeDefined();
    // Not in the bytes at all (no earlier revision keeps them), and not in any object qpdf reads.
    const raw = Buffer.from(sealed).toString('latin1');
    for (const m of [
      'app.alert',
      'payload.exe',
      'MZ-payload',
      '/Launch',
      '/JavaScript',
      '/OpenAction',
      '/XFA',
      '/FileAttachment',
      '/EmbeddedFile',
    ])
      expect(raw, m).not.toContain(m);
    const pdfFile = path.join(tmp.dir, 'hostile-sealed.pdf');
    await writeFile(pdfFile, sealed);
    const json = JSON.parse((await tool('qpdf', ['--json', pdfFile])).stdout) as {
      attachments: Record<string, unknown>;
      qpdf: [unknown, Record<string, unknown>];
    };
    expect(json.attachments).toEqual({});
    const keys = JSON.stringify(json.qpdf[1]);
    for (const k of [
      '"/AA"',
      '"/OpenAction"',
      '"/JavaScript"',
      '"/Launch"',
      '"/EmbeddedFiles"',
      '"/XFA"',
      '"/FileAttachment"',
    ])
      expect(keys, k).not.toContain(k);
    // The harmless web link stays.
    expect(keys).toContain('https://example.com/terms');
    const report = await pdfsig(pdfFile);
    expect(report.signatures.at(-1)?.valid, report.text).toBe(true);
    expect(report.signatures.at(-1)?.total, report.text).toBe(true);
  }, 120_000);
});
