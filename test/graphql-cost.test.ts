/**
 * What one `/graphql` request may cost: one root field per operation
 * (aliases counted), bounded depth, fields and aliases. 900 aliased
 * `generateEtchSignURL` would mint 900 tokens, and 20 aliased `createEtchPacket`
 * with a development key (concurrency 1) would make 20 packets: both are a typed
 * 400 before anything runs. The official client's own operations still pass. The
 * standard introspection query (14 levels deep) is answered, as GraphiQL sends it,
 * while a data query 9 levels deep is refused, and introspection has bounds of its own.
 */
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LazyPacketBackend, openPacketBackend, type PacketBackend } from '../src/server/graphql/index.js';
import { tempDir } from './helpers/signing.js';
import { basic, DEV_KEY, PROD_KEY, startTestServer, type TestServer } from './server-setup.js';

const Anvil = anvilModule.default;
let server: TestServer;
let tmp: { dir: string; remove: () => Promise<void> };
let backend: PacketBackend;

beforeAll(async () => {
  tmp = await tempDir('castpress-graphql-cost-');
  let base = '';
  const packets = new LazyPacketBackend(async () => {
    backend = await openPacketBackend({ dataDir: tmp.dir, engine: server.engine, baseUrl: base, pollMs: 50 });
    return backend;
  });
  server = await startTestServer({ packets });
  base = server.base;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await tmp?.remove();
}, 60_000);

interface GqlBody {
  data?: Record<string, unknown> | null;
  errors?: Array<{
    message: string;
    extensions: { name: string; status: number; fields?: Array<{ property: string; message: string }> };
  }>;
}

async function gql(
  key: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{ status: number; body: GqlBody }> {
  const res = await fetch(`${server.base}/graphql`, {
    method: 'POST',
    headers: { authorization: basic(key), 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as GqlBody };
}

/** A refused query: 400, GraphQLValidationError naming `query`, and a message matching `pattern`. */
function refused(r: { status: number; body: GqlBody }, pattern: RegExp): void {
  expect(r.status, JSON.stringify(r.body).slice(0, 500)).toBe(400);
  expect(r.body.data).toBeUndefined();
  const e = r.body.errors!.find((x) => pattern.test(x.message));
  expect(e, JSON.stringify(r.body.errors).slice(0, 500)).toBeDefined();
  expect(e!.extensions).toMatchObject({
    name: 'GraphQLValidationError',
    status: 400,
    fields: [{ property: 'query', message: e!.message }],
  });
}

function countPackets(): number {
  const db = new Database(path.join(tmp.dir, 'packets', 'packets.db'), { readonly: true });
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM packets').get() as { n: number | bigint }).n);
  } finally {
    db.close();
  }
}

const file = {
  id: 'a',
  filename: 'a.pdf',
  title: 'A',
  fields: [
    { content: 'Hello' },
    { id: 's', type: 'signature', pageNum: 0, rect: { x: 72, y: 200, width: 200, height: 30 } },
  ],
};
const signer = {
  id: 'x',
  name: 'X Y',
  email: 'x@example.com',
  signerType: 'embedded',
  fields: [{ fileId: 'a', fieldId: 's' }],
};

describe('GraphQL cost limits', () => {
  let signerEid = '';
  let packetEid = '';

  it("the official client's operations pass: createEtchPacket, getEtchPacket, generateEtchSignUrl", async () => {
    const client = new Anvil({ apiKey: PROD_KEY, baseURL: server.base });
    const created = (await client.createEtchPacket({
      variables: { name: 'Cost', isTest: true, files: [file], signers: [signer] },
    })) as unknown as {
      statusCode: number;
      data: { data: { createEtchPacket: { eid: string; documentGroup: { signers: Array<{ eid: string }> } } } };
      errors?: unknown;
    };
    expect(created.errors, JSON.stringify(created.errors)).toBeUndefined();
    packetEid = created.data.data.createEtchPacket.eid;
    signerEid = created.data.data.createEtchPacket.documentGroup.signers[0]!.eid;
    const got = (await client.getEtchPacket({ variables: { eid: packetEid } })) as unknown as {
      statusCode: number;
      errors?: unknown;
    };
    expect(got.errors).toBeUndefined();
    expect(got.statusCode).toBe(200);
    const url = await client.generateEtchSignUrl({ variables: { signerEid, clientUserId: 'u1' } });
    expect(url.errors).toBeUndefined();
    expect(url.url).toContain(`/sign/${signerEid}?token=`);
    expect(await backend.store.tokens(signerEid)).toHaveLength(1);
  });

  it('900 aliased generateEtchSignURL: 400 before any resolver, no token minted', async () => {
    const before = (await backend.store.tokens(signerEid)).length;
    // 11 tokens each: 900 of them fit the parser's limit of 10,000.
    const fields = Array.from(
      { length: 900 },
      (_, i) => `u${i}: generateEtchSignURL(signerEid: "${signerEid}", clientUserId: "u${i}")`,
    ).join('\n');
    const r = await gql(PROD_KEY, `mutation { ${fields} }`);
    refused(r, /at most 1 mutation field \(aliases counted\); this mutation has 900/);
    expect(await backend.store.tokens(signerEid)).toHaveLength(before);
    // Two are refused too: a request is one operation.
    refused(
      await gql(
        PROD_KEY,
        `mutation($s: String!) { a: generateEtchSignURL(signerEid: $s, clientUserId: "a") b: generateEtchSignURL(signerEid: $s, clientUserId: "b") }`,
        { s: signerEid },
      ),
      /this mutation has 2/,
    );
    expect(await backend.store.tokens(signerEid)).toHaveLength(before);
  });

  it('20 aliased createEtchPacket with a development key (concurrency 1): 400, no packet created', async () => {
    const before = countPackets();
    const fields = Array.from(
      { length: 20 },
      (_, i) => `p${i}: createEtchPacket(name: "p${i}", isTest: true, files: $files, signers: $signers) { eid }`,
    ).join('\n');
    const r = await gql(DEV_KEY, `mutation($files: [EtchFile!], $signers: [JSON!]) { ${fields} }`, {
      files: [file],
      signers: [signer],
    });
    refused(r, /this mutation has 20 \(createEtchPacket\)/);
    expect(countPackets()).toBe(before);
    // Through a fragment on Mutation, the same count.
    const viaFragment = await gql(
      DEV_KEY,
      `mutation($files: [EtchFile!], $signers: [JSON!]) { ...M } fragment M on Mutation { a: createEtchPacket(name: "a", isTest: true, files: $files, signers: $signers) { eid } b: createEtchPacket(name: "b", isTest: true, files: $files, signers: $signers) { eid } }`,
      { files: [file], signers: [signer] },
    );
    refused(viaFragment, /this mutation has 2/);
    expect(countPackets()).toBe(before);
    // One is an ordinary request.
    const one = await gql(
      DEV_KEY,
      `mutation($files: [EtchFile!], $signers: [JSON!]) { createEtchPacket(name: "one", isTest: true, files: $files, signers: $signers) { eid } }`,
      { files: [file], signers: [signer] },
    );
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(countPackets()).toBe(before + 1);
  });

  it('queries: several root fields, too deep, too many fields, too many aliases, fragment bombs: 400', async () => {
    refused(
      await gql(DEV_KEY, `{ a: etchPacket(eid: "${packetEid}") { eid } b: etchPacket(eid: "${packetEid}") { eid } }`),
      /at most 1 query field .*this query has 2/,
    );
    // 1,100 copies of one field fit the parser's token limit (graphql's own overlap check is quadratic in them).
    refused(
      await gql(
        PROD_KEY,
        `{ ${Array.from({ length: 1100 }, () => `etchPacket(eid: "${packetEid}") { eid }`).join(' ')} }`,
      ),
      /this query has 1100/,
    );
    refused(
      await gql(
        PROD_KEY,
        `{ etchPacket(eid: "${packetEid}") { ${Array.from({ length: 300 }, () => 'eid').join(' ')} } }`,
      ),
      /selects 301 fields .*at most 200/,
    );
    refused(
      await gql(
        PROD_KEY,
        `{ etchPacket(eid: "${packetEid}") { ${Array.from({ length: 21 }, (_, i) => `n${i}: name`).join(' ')} } }`,
      ),
      /has 21 aliased fields/,
    );
    // Each fragment spreads the one before twice: 2^12 fields from a few hundred bytes.
    const frags = Array.from({ length: 12 }, (_, i) => `fragment F${i + 1} on EtchPacket { ...F${i} ...F${i} }`).join(
      ' ',
    );
    refused(
      await gql(
        PROD_KEY,
        `{ etchPacket(eid: "${packetEid}") { ...F12 } } fragment F0 on EtchPacket { x: eid } ${frags}`,
      ),
      /selects 4097 fields/,
    );
    // A fragment cycle is graphql's own error, not a hang.
    refused(
      await gql(
        PROD_KEY,
        `{ etchPacket(eid: "x") { ...A } } fragment A on EtchPacket { ...B } fragment B on EtchPacket { ...A }`,
      ),
      /Cannot spread fragment/,
    );
    // The deepest path of the schema is well within the limit, and a query with __typename beside its field passes.
    const deep = await gql(
      PROD_KEY,
      `{ __typename etchPacket(eid: "${packetEid}") { documentGroup { signers { signerTokens { eid } } } } }`,
    );
    expect(deep.status, JSON.stringify(deep.body)).toBe(200);
    expect(deep.body.errors).toBeUndefined();
  });

  it('answers the standard introspection query (14 levels deep) while a data query 9 levels deep is refused', async () => {
    for (const query of [
      getIntrospectionQuery(),
      // Every option GraphiQL may ask for.
      getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
        oneOf: true,
      }),
    ]) {
      const r = await gql(DEV_KEY, query);
      expect(r.status, JSON.stringify(r.body).slice(0, 500)).toBe(200);
      expect(r.body.errors).toBeUndefined();
      const schema = buildClientSchema(r.body.data as unknown as IntrospectionQuery);
      expect(Object.keys(schema.getMutationType()!.getFields())).toContain('createEtchPacket');
      expect(schema.getType('EtchSigner')).toBeDefined();
    }
    // Through a fragment on Query, and a __type lookup, the same.
    const viaFragment = await gql(
      PROD_KEY,
      `{ ...Q } fragment Q on Query { __type(name: "EtchPacket") { fields { name type { kind ofType { name } } } } }`,
    );
    expect(viaFragment.status, JSON.stringify(viaFragment.body).slice(0, 500)).toBe(200);

    // A data query one level past the limit is refused, with or without introspection beside it.
    const nine = `etchPacket(eid: "${packetEid}") { documentGroup { signers { a { b { c { d { e { f { g } } } } } } } } }`;
    refused(await gql(PROD_KEY, `{ ${nine} }`), /query is nested 9 levels deep; at most 8/);
    refused(await gql(PROD_KEY, `{ __schema { queryType { name } } ${nine} }`), /nested 9 levels deep/);
    // __schema below the root is no introspection: its levels count as data.
    refused(
      await gql(
        PROD_KEY,
        `{ etchPacket(eid: "x") { __schema { types { fields { type { ofType { ofType { ofType { ofType { name } } } } } } } } } }`,
      ),
      /query is nested 9 levels deep; at most 8/,
    );
  });

  it('keeps introspection bounded: its depth, its size, and lists of types within lists of types', async () => {
    const chain = (n: number): string => (n === 0 ? 'name' : `name ofType { ${chain(n - 1)} }`);
    refused(
      await gql(PROD_KEY, `{ __type(name: "EtchPacket") { ${chain(20)} } }`),
      /introspection is nested 21 levels deep; at most 20/,
    );
    refused(
      await gql(PROD_KEY, `{ __schema { types { ${Array.from({ length: 400 }, () => 'name').join(' ')} } } }`),
      /introspection selects 402 fields .*at most 400/,
    );
    // Each level multiplies the answer by the schema's fields: graphql's own rule refuses the third.
    refused(
      await gql(PROD_KEY, `{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }`),
      /Maximum introspection depth exceeded/,
    );
  });
});
