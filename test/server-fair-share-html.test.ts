/**
 * One organization's HTML does not stall another's: Chromium's pages are taken by organizations
 * in turn, as the render pool's threads are (fair-share.ts through `RenderPool.html`). Counted, not timed:
 * organization B's HTML documents each load an image through the engine's resolver (the test's own, as
 * in the html tests: Chromium never reaches a loopback address), which answers only when the test releases
 * it, so each of B's jobs holds its page until then. A's small document loads a stylesheet (fetched while its document is built, before it
 * asks for a page) and an image (fetched once it has a page). The test releases B's jobs one at a time until
 * A's image is asked for, and counts the releases: first come, first served, A waits for B's whole queue.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine/index.js';
import type { ResolvedResource } from '../src/resources/index.js';
import { buildApp } from '../src/server/index.js';
import { RenderPool } from '../src/server/pool/render-pool.js';

const A = 'fair-html-a-prod-key-0123456789';
const B = 'fair-html-b-prod-key-0123456789';
const auth = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
/** A 1×1 transparent PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

interface Answer {
  status: number;
  text: string;
}

async function post(base: string, path: string, key: string, body: unknown): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: auth(key) },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/**
 * The resources: `https://held.test/<id>.png` is answered when the test releases `id`; any other URL at
 * once. `arrived(path)` resolves when the resolver has been asked for `path`.
 */
class Resources {
  readonly #seen = new Map<string, { promise: Promise<void>; resolve: () => void; came: boolean }>();
  readonly #held = new Map<string, () => void>();

  readonly resolver = async (url: string): Promise<ResolvedResource> => {
    const path = new URL(url).pathname;
    const entry = this.#entry(path);
    entry.came = true;
    entry.resolve();
    const held = /^\/held\/(.+)\.png$/.exec(path);
    if (held) await new Promise<void>((r) => this.#held.set(held[1]!, r));
    if (path.endsWith('.css')) return { body: new TextEncoder().encode('p { color: #123; }'), contentType: 'text/css' };
    return { body: new Uint8Array(PNG), contentType: 'image/png' };
  };

  #entry(path: string) {
    let entry = this.#seen.get(path);
    if (!entry) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      entry = { promise, resolve, came: false };
      this.#seen.set(path, entry);
    }
    return entry;
  }

  arrived(path: string): Promise<void> {
    return this.#entry(path).promise;
  }

  came(path: string): boolean {
    return this.#seen.get(path)?.came ?? false;
  }

  release(id: string): void {
    this.#held.get(id)?.();
  }

  releaseAll(): void {
    for (const id of this.#held.keys()) this.release(id);
  }
}

/**
 * Sends B's held documents, waits until the first holds a page, sends A's, waits until A's document is
 * built (its stylesheet fetched), then releases B's jobs that hold a page one at a time (oldest first) until
 * A's image is asked for (A has a page). Returns how many of B's jobs were released before that.
 */
async function releasedBeforeA(
  res: Resources,
  bIds: string[],
  sendB: (id: string) => Promise<Answer>,
  sendA: () => Promise<Answer>,
  aId: string,
): Promise<{ released: number; a: Answer; b: Answer[] }> {
  const bAnswers = bIds.map((id) => sendB(id));
  await res.arrived(`/held/${bIds[0]}.png`);
  const aAnswer = sendA();
  await Promise.race([res.arrived(`/${aId}.css`), aAnswer]);
  const aPage = res.arrived(`/${aId}.png`);
  // A answered without asking for its image (a failure the assertions show): nothing more to count.
  let aDone = false;
  void aAnswer.then(() => (aDone = true));
  let released = 0;
  const done = new Set<string>();
  while (!res.came(`/${aId}.png`) && !aDone) {
    const next = bIds.find((id) => res.came(`/held/${id}.png`) && !done.has(id));
    if (!next) {
      // The freed page went to another job: wait for it to be A's or a B job's.
      await Promise.race([
        aPage,
        aAnswer,
        ...bIds.filter((id) => !done.has(id)).map((id) => res.arrived(`/held/${id}.png`)),
      ]);
      continue;
    }
    done.add(next);
    released++;
    res.release(next);
    await Promise.race([aPage, aAnswer, bAnswers[bIds.indexOf(next)]]);
  }
  // The rest, each once it has its page.
  for (const id of bIds) {
    if (done.has(id)) continue;
    await res.arrived(`/held/${id}.png`);
    res.release(id);
  }
  return { released, a: await aAnswer, b: await Promise.all(bAnswers) };
}

describe("server: two organizations share Chromium's pages", () => {
  let app: FastifyInstance;
  let url = '';
  const res = new Resources();
  beforeAll(async () => {
    // Held resources are answered only when the test says so: no page deadline passes meanwhile.
    const engine = createEngine({ resolver: res.resolver, chromium: { maxPages: 2, jobTimeoutMs: 600_000 } });
    // As startServer sets it with two organizations: each may hold one page of two.
    const renderPool = new RenderPool({ engine: {}, threads: 2, deadlineMs: 600_000, htmlPages: 2, laneHtmlPages: 1 });
    app = await buildApp({
      engine,
      renderPool,
      closeEngine: true,
      logger: false,
      config: {
        keys: [
          { key: A, kind: 'production', organization: 'a' },
          { key: B, kind: 'production', organization: 'b' },
        ],
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    // Chromium started and both pages warm before anything is counted.
    const small = { type: 'html', title: 'warm', data: { html: '<p>Hello</p>' } };
    await Promise.all([post(url, '/api/v1/generate-pdf', A, small), post(url, '/api/v1/generate-pdf', B, small)]);
  }, 180_000);
  afterAll(async () => {
    res.releaseAll();
    await app?.close();
  });

  it("A's small HTML generate gets a page while B's six are held (first come, A waited for all six)", async () => {
    const bIds = Array.from({ length: 6 }, (_, i) => `gen-b${i}`);
    const held = (id: string) => ({ html: `<p>B ${id}</p><img src="https://held.test/held/${id}.png">` });
    const small = {
      html: '<link rel="stylesheet" href="https://a.test/gen-a.css"><p>A small</p><img src="https://a.test/gen-a.png">',
    };
    const r = await releasedBeforeA(
      res,
      bIds,
      (id) => post(url, '/api/v1/generate-pdf', B, { type: 'html', title: id, data: held(id) }),
      () => post(url, '/api/v1/generate-pdf', A, { type: 'html', title: 'a', data: small }),
      'gen-a',
    );
    expect(r.a.status, r.a.text).toBe(200);
    for (const b of r.b) expect(b.status, b.text).toBe(200);
    // With two organizations B holds one page of two: A's starts at once (one release when the test's
    // first release overtakes A's page, which has its turn already).
    expect(r.released).toBeLessThanOrEqual(1);
  }, 300_000);
});
