/**
 * Large bodies are parsed off the event loop, whatever their shape: a REST JSON body (when the
 * operator allows large ones), a REST multipart `data` part as text or declared `application/json` (as a
 * field, which the multipart plugin parsed itself, or as a file part), a `/graphql` multipart `operations`
 * part declared JSON. Each is 12 MB of JSON holding a base64 string, what a large upload or image looks
 * like. The server runs in this process, so every JSON.parse of its event loop passes through this
 * test's spy (a worker thread has its own JSON): none may read more than 1 MiB. Counted rather than timed:
 * one JSON.parse of 12 MB holding one long string takes tens of ms, within what a loaded machine's loop
 * stalls anyway; a body of many values is bounded by the values a thread may hand back (50,000: 413).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server/index.js';
import { longestJsonParsed } from './helpers/json-spy.js';
import { tempDir } from './helpers/signing.js';

const MIB = 1024 * 1024;
/** 12 MB of base64 (what a 9 MB upload becomes inside JSON). */
const BIG = Buffer.alloc(9 * MIB, 7).toString('base64');

interface Part {
  name: string;
  value: string;
  type?: string;
  filename?: string;
}

/** A multipart body written by hand: fetch's FormData cannot send a field (no file name) with its own Content-Type. */
function multipart(parts: Part[]): { body: Blob; type: string } {
  const boundary = 'castpress-large-bodies-boundary';
  const chunks = parts.flatMap((p) => [
    `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n`,
    p.type ? `Content-Type: ${p.type}\r\n` : '',
    `\r\n${p.value}\r\n`,
  ]);
  chunks.push(`--${boundary}--\r\n`);
  return { body: new Blob([chunks.join('')]), type: `multipart/form-data; boundary=${boundary}` };
}

/** The fill of a template that does not exist: the body is only read and handed to a thread, which answers 404. */
const FILL = '/api/v1/fill/no-such-template.pdf';
const dataOf = () => JSON.stringify({ photo: `data:image/png;base64,${BIG}` });

let server: RunningServer;
let tmp: { dir: string; remove: () => Promise<void> };

beforeAll(async () => {
  tmp = await tempDir('castpress-large-bodies-');
  server = await startServer({
    port: 0,
    noAuth: true,
    packets: { dataDir: tmp.dir, deliver: false },
    // An operator who takes large JSON bodies on the REST routes too.
    engine: { limits: { jsonBodyBytes: 32 * MIB } },
    renderPool: { threads: 2 },
  });
  // Both threads warm before anything is measured.
  for (let i = 0; i < 2; i++) await Promise.all([send(FILL, '{}'), send(FILL, '{}')]);
}, 180_000);

afterAll(async () => {
  await server?.close();
  await tmp?.remove();
});

async function send(path: string, body: string | Blob, type = 'application/json') {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': type }, body });
  return { status: res.status, body: (await res.json()) as { name?: string; errors?: unknown[] } };
}

describe('large bodies off the event loop', () => {
  const shapes: Array<[string, () => Promise<{ status: number; body: { name?: string; errors?: unknown[] } }>]> = [
    ['a REST JSON body', () => send(FILL, JSON.stringify({ data: { photo: `data:image/png;base64,${BIG}` } }))],
    [
      'a REST multipart data part (text)',
      () => {
        const m = multipart([{ name: 'data', value: dataOf() }]);
        return send(FILL, m.body, m.type);
      },
    ],
    [
      'a REST multipart data field declared application/json',
      () => {
        const m = multipart([{ name: 'data', value: dataOf(), type: 'application/json' }]);
        return send(FILL, m.body, m.type);
      },
    ],
    [
      'a REST multipart file part declared application/json',
      () => {
        const m = multipart([{ name: 'data', value: dataOf(), type: 'application/json', filename: 'data.json' }]);
        return send(FILL, m.body, m.type);
      },
    ],
    [
      'a /graphql multipart operations field declared application/json',
      () => {
        const operations = JSON.stringify({
          query: 'mutation($files: [EtchFile!]){ createEtchPacket(isDraft: true, files: $files){ eid } }',
          variables: { files: [{ id: 'f0', title: 'T', file: BIG, fields: [] }] },
        });
        const m = multipart([
          { name: 'operations', value: operations, type: 'application/json' },
          { name: 'map', value: '{}' },
        ]);
        return send('/graphql', m.body, m.type);
      },
    ],
  ];

  for (const [shape, post] of shapes) {
    it(`${shape} of 12 MB is parsed on a thread`, async () => {
      const { longest, value: answer } = await longestJsonParsed(post);
      // Answered by the thread's work on the parsed body (an unknown template, a file that is no PDF), not by the parser.
      expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(400);
      expect(answer.status).not.toBe(413);
      expect(longest, 'largest JSON.parse on the event loop').toBeLessThan(MIB);
    }, 120_000);
  }
});
