/**
 * `npm run demo -- --serve`: `castpress serve` in this process with the demo's template,
 * a demo packet created over `POST /graphql` as a client would, the two signing links printed to open
 * in a browser, and the completed packet's zip written into out/demo-serve/ once both have signed.
 * Loopback only and without API keys (`noAuth`): a demo, not a deployment. Ctrl-C (SIGINT) closes
 * the server and exits 0. `--port N` (default 8080; 0: any free port), `--out DIR` (default out/).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startServer } from '../src/server/index.js';
import { LETTER_EID, letterTemplate, orderForm, packetBody } from '../examples/demo-packet.js';

function flag(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

/** The demo template as a template folder `castpress serve --templates` reads. */
async function writeTemplateFolder(dir: string): Promise<void> {
  const t = await letterTemplate();
  const folder = path.join(dir, LETTER_EID);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'letter.pdf'), t.pdf as Uint8Array);
  await writeFile(
    path.join(folder, 'v1.json'),
    JSON.stringify({ title: t.title, pdf: 'letter.pdf', fields: t.fields }),
  );
}

const CREATE = `mutation Create($name: String, $isDraft: Boolean, $files: [EtchFile!], $signers: [JSON!], $data: JSON) {
  createEtchPacket(name: $name, isDraft: $isDraft, files: $files, signers: $signers, data: $data) {
    eid documentGroup { eid signers { eid aliasId } }
  }
}`;
const SIGN_URL = `mutation Url($signerEid: String!, $clientUserId: String!) {
  generateEtchSignURL(signerEid: $signerEid, clientUserId: $clientUserId)
}`;
const STATUS = `query Status($eid: String!) { etchPacket(eid: $eid) { status documentGroup { downloadZipURL } } }`;

export async function serveDemo(root: string, argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const outDir = path.resolve(flag(argv, '--out') ?? path.join(root, 'out'));
  const port = Number(flag(argv, '--port') ?? 8080);
  const dir = path.join(outDir, 'demo-serve');
  // A fresh packet store each start: the demo's packet is the only one.
  await rm(dir, { recursive: true, force: true });
  await writeTemplateFolder(path.join(dir, 'templates'));
  const server = await startServer({
    templates: path.join(dir, 'templates'),
    port,
    noAuth: true,
    packets: { dataDir: path.join(dir, 'data') },
  });
  const gql = async <T>(query: string, variables: Record<string, unknown>): Promise<T> => {
    const res = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const answer = (await res.json()) as { data?: T; errors?: unknown[] };
    if (!answer.data || answer.errors) throw new Error(`GraphQL: ${JSON.stringify(answer.errors)}`);
    return answer.data;
  };

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    console.log('\nStopping: closing the server...');
    await server.close();
    console.log('Stopped.');
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(0)));

  const body = packetBody(await orderForm());
  const files = body.files.map((f) =>
    'file' in f && f.file ? { ...f, file: { ...f.file, data: Buffer.from(f.file.data).toString('base64') } } : f,
  );
  const { createEtchPacket: packet } = await gql<{
    createEtchPacket: { eid: string; documentGroup: { eid: string; signers: Array<{ eid: string; aliasId: string }> } };
  }>(CREATE, { ...body, files });
  console.log(`castpress serve: listening on ${server.url} (demo: loopback, no API keys)`);
  console.log(`OpenAPI document: ${server.url}/openapi.json   GraphQL schema: ${server.url}/graphql/schema.graphql`);
  console.log(`Demo packet "${body.name}" created. Open the signing links in a browser, in this order:`);
  for (const signer of packet.documentGroup.signers) {
    const { generateEtchSignURL: url } = await gql<{ generateEtchSignURL: string }>(SIGN_URL, {
      signerEid: signer.eid,
      clientUserId: `demo-${signer.aliasId}`,
    });
    console.log(`  ${signer.aliasId === 'client' ? '1. client (draws)' : '2. provider (types)'}: ${url}`);
  }
  const zipFile = path.join(dir, `${packet.documentGroup.eid}.zip`);
  console.log(`When both have signed, the completed packet (sealed PDFs) is written to ${zipFile}`);
  console.log('Ctrl-C stops the server.');

  // Polled as a client without webhooks would; the zip is the document-group download.
  const poll = async () => {
    try {
      const { etchPacket } = await gql<{ etchPacket: { status: string; documentGroup: { downloadZipURL: string } } }>(
        STATUS,
        { eid: packet.eid },
      );
      if (etchPacket.status === 'complete') {
        const res = await fetch(etchPacket.documentGroup.downloadZipURL);
        if (!res.ok) throw new Error(`zip download: HTTP ${res.status}`);
        await writeFile(zipFile, Buffer.from(await res.arrayBuffer()));
        console.log(`Completed: ${zipFile}`);
        return;
      }
    } catch (e) {
      if (stopped) return;
      console.error(`demo: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!stopped) timer = setTimeout(() => void poll(), 1_000);
  };
  timer = setTimeout(() => void poll(), 1_000);
}
