/**
 * Operations endpoints: `/health`, `/ready` (Chromium, packet store,
 * further checks), and Prometheus metrics at `/metrics` counting this test's own
 * requests by route pattern and status, render durations by kind, the render
 * pool's gauges and the packet outbox read at scrape time, and the process's runtime metrics.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxRecord } from '../src/packets/index.js';
import { LazyPacketBackend, openPacketBackend, type PacketBackend } from '../src/server/graphql/index.js';
import { ServerMetrics } from '../src/server/metrics.js';
import { RenderPool } from '../src/server/pool/render-pool.js';
import { EID, PROD_KEY, basic, startTestServer, type TestServer } from './server-setup.js';
import { startServe } from './helpers/serve.js';
import { tempDir } from './helpers/signing.js';

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { authorization: basic(PROD_KEY), 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const markdown = { data: [{ heading: 'Ops' }] };

let tmp: { dir: string; remove: () => Promise<void> };
const servers: TestServer[] = [];
beforeAll(async () => {
  tmp = await tempDir('castpress-ops-');
});
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => {});
  await tmp?.remove();
});

async function server(extra: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const s = await startTestServer(extra);
  servers.push(s);
  return s;
}

/** A packet backend over SQLite in its own folder, opened on first use with the server's engine; `made` once opened. */
function packetBackend(name: string, owner: () => TestServer) {
  let made: PacketBackend | undefined;
  const packets = new LazyPacketBackend(
    async () =>
      (made = await openPacketBackend({
        dataDir: path.join(tmp.dir, name),
        engine: owner().engine,
        baseUrl: owner().base,
        deliver: false,
      })),
  );
  return { packets, made: () => made };
}

/** The value of one sample line (`name{labels} value`) of the exposition text, undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

function outboxEvent(id: string, status: OutboxRecord['status']): OutboxRecord {
  return {
    id,
    packetEid: 'pkt',
    kind: 'webhook',
    payload: {},
    status,
    attempts: 0,
    nextAttemptAt: 0,
    leaseUntil: 0,
    lastError: null,
    responseCode: null,
    createdAt: 0,
    deliveredAt: null,
  };
}

interface Report {
  status: string;
  checks: Record<string, { ok: boolean; message: string }>;
}

describe('/health', () => {
  it('answers 200 {status:"ok"} without an API key', async () => {
    const s = await server();
    const res = await fetch(`${s.base}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});

describe('/ready', () => {
  it('is 200 while Chromium and the packet store answer, 503 naming the store once the store is closed', async () => {
    let s!: TestServer;
    const backend = packetBackend('ready', () => s);
    // A generous deadline: the first probe loads the HTML renderer's modules, slow on a loaded machine (the state is under test, not the time).
    s = await server({ packets: backend.packets, readyCheckTimeoutMs: 120_000 });
    const ready = await fetch(`${s.base}/ready`);
    const report = (await ready.json()) as Report;
    expect(ready.status, JSON.stringify(report)).toBe(200);
    expect(report).toEqual({
      status: 'ready',
      checks: { chromium: { ok: true, message: 'ok' }, store: { ok: true, message: 'ok' } },
    });

    await backend.made()!.store.close();
    const down = await fetch(`${s.base}/ready`);
    const downReport = (await down.json()) as Report;
    expect(down.status).toBe(503);
    expect(downReport.status).toBe('unavailable');
    expect(downReport.checks.chromium).toEqual({ ok: true, message: 'ok' });
    expect(downReport.checks.store).toEqual({ ok: false, message: 'The packet store does not answer' });
    // Liveness is not readiness: the process still serves.
    expect((await fetch(`${s.base}/health`)).status).toBe(200);
  });

  it('is 503 when the configured Chromium executable is missing, without naming its path', async () => {
    const s = await server({
      chromiumExecutable: path.join(tmp.dir, 'no-such-chromium'),
      readyCheckTimeoutMs: 120_000,
    });
    const res = await fetch(`${s.base}/ready`);
    const text = await res.text();
    expect(res.status).toBe(503);
    expect(JSON.parse(text)).toEqual({
      status: 'unavailable',
      checks: {
        chromium: { ok: false, message: 'Chromium cannot be started: its executable is missing or not executable' },
      },
    });
    expect(text).not.toContain(tmp.dir);
  });

  it('runs further checks (a queue) and fails one that never answers after its deadline rather than hanging', async () => {
    const s = await server({
      readyCheckTimeoutMs: 200,
      readyChecks: [
        { name: 'queue', failure: 'The queue does not answer', probe: () => new Promise<void>(() => {}) },
        {
          name: 'other',
          failure: 'Other is down',
          probe: () => Promise.reject(new Error('password=hunter2 at db.internal')),
        },
      ],
    });
    const res = await fetch(`${s.base}/ready`);
    const text = await res.text();
    expect(res.status).toBe(503);
    const report = JSON.parse(text) as Report;
    expect(report.checks.queue).toEqual({ ok: false, message: 'The queue does not answer (no answer within 200 ms)' });
    expect(report.checks.other).toEqual({ ok: false, message: 'Other is down' });
    expect(text).not.toContain('hunter2');
  });
});

describe('/metrics', () => {
  it('is not served unless asked for', async () => {
    const s = await server();
    expect((await fetch(`${s.base}/metrics`)).status).toBe(404);
  });

  it("counts this test's requests by route pattern and status, times renders by kind, reads the outbox at scrape time", async () => {
    let s!: TestServer;
    const backend = packetBackend('metrics', () => s);
    s = await server({ metrics: true, packets: backend.packets });
    for (let i = 0; i < 3; i++) expect((await fetch(`${s.base}/api/v1/generate-pdf`, post(markdown))).status).toBe(200);
    expect((await fetch(`${s.base}/api/v1/generate-pdf`, post({ data: 'not a list' }))).status).toBe(400);
    expect((await fetch(`${s.base}/api/v1/fill/${EID}.pdf`, post({ data: { name: 'x' } }))).status).toBe(200);
    expect((await fetch(`${s.base}/no-such-path-4711`)).status).toBe(404);
    const { store } = await backend.packets.get();
    await store.transaction(async (tx) => {
      await tx.insertOutbox(outboxEvent('e1', 'pending'));
      await tx.insertOutbox(outboxEvent('e2', 'pending'));
      await tx.insertOutbox(outboxEvent('e3', 'failed'));
      await tx.insertOutbox(outboxEvent('e4', 'delivered'));
    });

    const res = await fetch(`${s.base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    const requests = (route: string, status: number) =>
      sample(text, `castpress_http_requests_total{method="POST",route="${route}",status="${status}"}`);
    expect(requests('/api/v1/generate-pdf', 200)).toBe(3);
    expect(requests('/api/v1/generate-pdf', 400)).toBe(1);
    expect(requests('/api/v1/fill/:file', 200)).toBe(1);
    expect(sample(text, 'castpress_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(
      sample(
        text,
        'castpress_http_request_duration_seconds_count{method="POST",route="/api/v1/generate-pdf",status="200"}',
      ),
    ).toBe(3);
    // The raw URLs (template EID, scanned path) never become labels.
    expect(text).not.toContain(EID);
    expect(text).not.toContain('4711');
    // The 400 was refused before rendering.
    expect(sample(text, 'castpress_render_duration_seconds_count{kind="markdown"}')).toBe(3);
    expect(sample(text, 'castpress_render_duration_seconds_count{kind="fill"}')).toBe(1);
    expect(sample(text, 'castpress_packet_events{status="pending"}')).toBe(2);
    expect(sample(text, 'castpress_packet_events{status="failed"}')).toBe(1);

    // Read at scrape time: an event given up on shows at the next scrape.
    await store.settleOutbox('e1', {
      status: 'failed',
      attempts: 5,
      nextAttemptAt: 0,
      lastError: 'gave up',
      responseCode: null,
      deliveredAt: null,
    });
    const again = await (await fetch(`${s.base}/metrics`)).text();
    expect(sample(again, 'castpress_packet_events{status="pending"}')).toBe(1);
    expect(sample(again, 'castpress_packet_events{status="failed"}')).toBe(2);
    // The first scrape is itself counted by the second.
    expect(sample(again, 'castpress_http_requests_total{method="GET",route="/metrics",status="200"}')).toBe(1);

    // A store that stops answering: no packet samples (not stale counts), the rest still scraped.
    await store.close();
    const down = await fetch(`${s.base}/metrics`);
    expect(down.status).toBe(200);
    const downText = await down.text();
    expect(downText).not.toContain('castpress_packet_events{');
    expect(sample(downText, 'castpress_http_requests_total{method="GET",route="/metrics",status="200"}')).toBe(2);
  });

  it('keeps one registry per server: a second server counts only its own requests', async () => {
    const a = await server({ metrics: true });
    const b = await server({ metrics: true });
    expect((await fetch(`${a.base}/api/v1/generate-pdf`, post(markdown))).status).toBe(200);
    const text = await (await fetch(`${b.base}/metrics`)).text();
    expect(text).not.toContain('route="/api/v1/generate-pdf"');
    const own = await (await fetch(`${a.base}/metrics`)).text();
    expect(sample(own, 'castpress_http_requests_total{method="POST",route="/api/v1/generate-pdf",status="200"}')).toBe(
      1,
    );
  });

  it("serves the process's runtime metrics (CPU, event loop, heap) beside each server's own, in two servers at once", async () => {
    const a = await server({ metrics: true });
    const b = await server({ metrics: true });
    for (const s of [a, b]) {
      const res = await fetch(`${s.base}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(sample(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
      expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
      expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
      // Each series once: the process's metrics are not collected again for the second server.
      expect(text.split('\n').filter((l) => l.startsWith('process_cpu_seconds_total ')).length).toBe(1);
    }
  });

  it('shows the render pool gauges and times Markdown run on its threads', async () => {
    const renderPool = new RenderPool({ engine: {}, threads: 2 });
    const s = await server({ metrics: true, renderPool });
    for (let i = 0; i < 2; i++) expect((await fetch(`${s.base}/api/v1/generate-pdf`, post(markdown))).status).toBe(200);
    const text = await (await fetch(`${s.base}/metrics`)).text();
    expect(sample(text, 'castpress_render_duration_seconds_count{kind="markdown"}')).toBe(2);
    // Nothing in flight at scrape time.
    expect(sample(text, 'castpress_render_pool_queue_depth')).toBe(0);
    expect(sample(text, 'castpress_render_pool_busy_workers')).toBe(0);
  }, 60_000);

  it("counts the pool's jobs as queued or busy while they run, none once they settle", async () => {
    const renderPool = new RenderPool({ engine: {}, threads: 2 });
    const metrics = await ServerMetrics.create({ renderPool });
    try {
      const jobs = Array.from({ length: 5 }, () => renderPool.run({ kind: 'generate', body: markdown }));
      // Read right after the five were handed over: each is either waiting for a thread or on one, at most one per thread.
      const during = await renderPool.load();
      expect(during.queued + during.busy).toBe(5);
      expect(during.busy).toBeLessThanOrEqual(2);
      expect(during.queued).toBeGreaterThanOrEqual(3);
      // The gauges show the same figures, each under its own name (no job settles without a turn of the event loop).
      const text = await metrics.text();
      const queueDepth = sample(text, 'castpress_render_pool_queue_depth') ?? -1;
      const busyWorkers = sample(text, 'castpress_render_pool_busy_workers') ?? -1;
      expect(queueDepth + busyWorkers).toBe(5);
      expect(busyWorkers).toBeLessThanOrEqual(2);
      expect(queueDepth).toBeGreaterThanOrEqual(3);
      await Promise.all(jobs);
      expect(await renderPool.load()).toMatchObject({ queued: 0, busy: 0 });
    } finally {
      metrics.close();
      await renderPool.close();
    }
  }, 60_000);

  it('times HTML renders (Chromium) and packet steps on the pool by kind', async () => {
    const renderPool = new RenderPool({ engine: {}, threads: 2 });
    let s!: TestServer;
    const packets = new LazyPacketBackend(() =>
      openPacketBackend({
        dataDir: path.join(tmp.dir, 'kinds'),
        engine: s.engine,
        baseUrl: s.base,
        deliver: false,
        threads: renderPool,
      }),
    );
    s = await server({ metrics: true, renderPool, packets });
    expect(
      (await fetch(`${s.base}/api/v1/generate-pdf`, post({ type: 'html', data: { html: '<p>Ops</p>' } }))).status,
    ).toBe(200);
    const res = await fetch(`${s.base}/graphql`, {
      ...post({
        query:
          'mutation($files: [EtchFile!], $signers: [JSON!]){ createEtchPacket(name: "Ops", files: $files, signers: $signers){ eid } }',
        variables: {
          files: [
            {
              id: 'a',
              filename: 'a.pdf',
              title: 'A',
              fields: [
                { content: 'Hello' },
                { id: 's', type: 'signature', pageNum: 0, rect: { x: 72, y: 200, width: 200, height: 30 } },
              ],
            },
          ],
          signers: [{ id: 'x', name: 'X Y', email: 'x@example.com', fields: [{ fileId: 'a', fieldId: 's' }] }],
        },
      }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const text = await (await fetch(`${s.base}/metrics`)).text();
    expect(sample(text, 'castpress_render_duration_seconds_count{kind="html"}')).toBe(1);
    // Assembly, on the pool's threads.
    expect(sample(text, 'castpress_render_duration_seconds_count{kind="packet"}')).toBe(1);
    expect(sample(text, 'castpress_http_requests_total{method="POST",route="/graphql",status="200"}')).toBe(1);
  }, 120_000);

  it('asks for the bearer token when one is configured', async () => {
    const s = await server({ metrics: { token: 'scrape-token-0123' } });
    const none = await fetch(`${s.base}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    expect((await none.json()) as { name: string }).toMatchObject({ name: 'AuthorizationError' });
    expect((await fetch(`${s.base}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123' } })).status).toBe(
      401,
    );
    // API keys do not open it either.
    expect((await fetch(`${s.base}/metrics`, { headers: { authorization: basic(PROD_KEY) } })).status).toBe(401);
    expect((await fetch(`${s.base}/metrics`, { headers: { authorization: 'Bearer scrape-token-0123' } })).status).toBe(
      200,
    );
    // The OpenAPI document says so: the metrics token's bearer scheme and the 401; a server without a token: neither.
    type Doc = {
      paths: Record<string, { get: { security: unknown; responses: Record<string, unknown> } }>;
      components: { securitySchemes: Record<string, unknown> };
    };
    const doc = (await (await fetch(`${s.base}/openapi.json`)).json()) as Doc;
    expect(doc.paths['/metrics']!.get.security).toEqual([{ metricsToken: [] }]);
    expect(doc.components.securitySchemes.metricsToken).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    expect(Object.keys(doc.paths['/metrics']!.get.responses)).toContain('401');
    const open = await server({ metrics: true });
    const openDoc = (await (await fetch(`${open.base}/openapi.json`)).json()) as Doc;
    expect(openDoc.paths['/metrics']!.get.security).toEqual([]);
    expect(Object.keys(openDoc.paths['/metrics']!.get.responses)).not.toContain('401');
  });
});

describe('castpress serve --metrics', () => {
  it('serves /health, /ready and a token-protected /metrics', async () => {
    const tokenFile = path.join(tmp.dir, 'metrics-token');
    await writeFile(tokenFile, 'cli-scrape-token\n');
    const p = startServe([
      '--no-auth',
      '--port',
      '0',
      '--data',
      path.join(tmp.dir, 'serve'),
      '--log-level',
      'silent',
      '--metrics',
      '--metrics-token-file',
      tokenFile,
    ]);
    try {
      const base = await p.url;
      expect((await fetch(`${base}/health`)).status).toBe(200);
      // The first probes may pass their 5 s deadline while the HTML renderer's modules load (a loaded machine); the load goes on and a later probe is ready.
      let ready = await fetch(`${base}/ready`);
      for (let i = 0; i < 20 && ready.status !== 200; i++) ready = await fetch(`${base}/ready`);
      expect(ready.status, await ready.clone().text()).toBe(200);
      expect(((await ready.json()) as Report).checks).toHaveProperty('store');
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      const res = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer cli-scrape-token' } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('castpress_render_pool_queue_depth 0');
    } finally {
      p.child.kill('SIGTERM');
      await p.exited;
    }
  }, 60_000);
});
