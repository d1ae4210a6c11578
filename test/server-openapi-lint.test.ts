/**
 * The OpenAPI document at GET /openapi.json against a maintained linter's recommended rules
 * (@redocly/openapi-core's `recommended` ruleset, run offline): no errors, and no warnings but the
 * one for the probes and references that answer no 4xx. The server has packets and a metrics token, so
 * `/graphql`, the document-group downloads and a secured `/metrics` are linted too.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LazyPacketBackend } from '../src/server/graphql/index.js';
import { startTestServer, type TestServer } from './server-setup.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    packets: new LazyPacketBackend(async () => {
      throw new Error('not opened in this test');
    }),
    metrics: { token: 'scrape-token-0123' },
  });
});
afterAll(async () => {
  await s?.close();
});

describe('GET /openapi.json and a linter', () => {
  it("passes @redocly/openapi-core's recommended rules", async () => {
    const source = await (await fetch(`${s.base}/openapi.json`)).text();
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: `${s.base}/openapi.json`, config });
    const shown = problems.map((p) => ({
      rule: p.ruleId,
      severity: p.severity,
      message: p.message,
      at: p.location.map((l) => l.pointer).join(' '),
    }));
    expect(shown.filter((p) => p.severity === 'error')).toEqual([]);
    // Liveness, readiness and the two references answer no 4xx: nothing to document, so the rule warns.
    expect(shown.filter((p) => p.rule !== 'operation-4xx-response')).toEqual([]);
    expect(shown.map((p) => p.at).sort()).toEqual(
      [
        '#/paths/~1graphql~1schema.graphql/get/responses',
        '#/paths/~1health/get/responses',
        '#/paths/~1openapi.json/get/responses',
        '#/paths/~1ready/get/responses',
      ].sort(),
    );
  });
});
