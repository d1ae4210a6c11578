/**
 * A Markdown request through the server is read once: its JSON parsed once and its body validated
 * once, on the event loop (a fast 400), and the render thread renders the validated request as it
 * is. Counted: `JSON.parse` of the body's text and `Engine.parseGenerate`, on the event loop and in
 * the thread's own function (`request` of the worker entry, run here on the job the server handed
 * to its pool, so its calls are counted in this process too).
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createEngine, Engine } from '../src/index.js';
import { buildApp } from '../src/server/index.js';
import { RenderPool } from '../src/server/pool/render-pool.js';
import { closeWorker, request as threadRequest } from '../src/batch/worker.js';

const body = {
  title: 'Counted',
  includeTimestamp: false,
  data: [{ heading: 'Quarterly report' }, { content: 'The **quarter** closed with steady figures. '.repeat(20) }],
};

describe('a Markdown request through the server', () => {
  const engine = createEngine({});
  const pool = new RenderPool({ engine: {}, threads: 2 });
  afterAll(async () => {
    vi.restoreAllMocks();
    await pool.close();
    await engine.close();
    await closeWorker();
  });

  it('is parsed and validated once: the render thread is handed the validated request', async () => {
    const app = await buildApp({ engine, renderPool: pool, logger: false });
    try {
      const text = JSON.stringify(body);
      const parses = vi.spyOn(JSON, 'parse');
      const validations = vi.spyOn(Engine.prototype, 'parseGenerate');
      const jobs = vi.spyOn(pool, 'run');
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/generate-pdf',
        headers: { 'content-type': 'application/json' },
        payload: text,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(parses.mock.calls.filter(([t]) => t === text)).toHaveLength(1);
      expect(validations).toHaveBeenCalledTimes(1);
      expect(jobs).toHaveBeenCalledTimes(1);

      // What the thread did with that job, done here: it renders without validating again.
      const job = jobs.mock.calls[0]![0];
      const outcome = await threadRequest({ ...job, engine: {} });
      expect(outcome.ok, JSON.stringify(outcome).slice(0, 300)).toBe(true);
      if (outcome.ok) expect(Buffer.from(outcome.pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
      expect(validations).toHaveBeenCalledTimes(1);
      expect(parses.mock.calls.filter(([t]) => t === text)).toHaveLength(1);
    } finally {
      await app.close();
    }
  }, 120_000);
});
