/**
 * What the workflow tests that go through `castpress serve` share: the server started with a keys file
 * (`keys`: the keys file's entries), `--data` in the test's folder and its own flags (`--workflows`…);
 * and the embedding app, a page of another loopback origin that frames a URL and records every message
 * posted to it (`window.messages`).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { closeServer } from './close.js';
import { startServe, stopServe, type ServeProcess } from './serve.js';

export interface WorkflowServe {
  serve: ServeProcess;
  base: string;
  close: () => Promise<void>;
}

export async function startWorkflowServe(
  dir: string,
  keys: ReadonlyArray<Record<string, string>>,
  args: string[],
): Promise<WorkflowServe> {
  const keysFile = path.join(dir, 'serve-keys.json');
  await writeFile(keysFile, JSON.stringify({ keys }));
  const serve = startServe([
    '--port',
    '0',
    '--keys',
    keysFile,
    '--data',
    path.join(dir, 'data'),
    '--log-level',
    'silent',
    ...args,
  ]);
  const base = await serve.url;
  return {
    serve,
    base,
    close: () => stopServe(serve),
  };
}

export interface FrameHost {
  base: string;
  close: () => Promise<void>;
}

/** The embedding app: its page frames `src()` (read at each request) and keeps the messages it receives. */
export async function startFrameHost(src: () => string): Promise<FrameHost> {
  const server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><title>host</title><script>window.messages = [];
addEventListener('message', (e) => window.messages.push({ origin: e.origin, data: e.data }));</script>
<iframe src="${src()}" width="420" height="700"></iframe>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => closeServer(server) };
}
