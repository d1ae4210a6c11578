import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import {
  isForbiddenAddress,
  FetchRefused,
  httpResolver,
  isPublicUrl,
  loadResource,
  type LookupAll,
  type ResourceResolver,
} from '../src/resources/index.js';
import { field, pngDataUrl, template } from './fixtures/fill/templates.js';

describe('isForbiddenAddress', () => {
  it('refuses loopback, private, link-local, CGNAT, multicast, unspecified and mapped addresses, v4 and v6', () => {
    const forbidden = [
      '127.0.0.1',
      '127.255.255.254',
      '0.0.0.0',
      '0.1.2.3',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.255',
      '224.0.0.1',
      '239.255.255.250',
      '255.255.255.255',
      '240.0.0.1',
      '::',
      '::1',
      '[::1]',
      '::ffff:127.0.0.1',
      '::ffff:0.0.0.0',
      '::ffff:7f00:1',
      '::ffff:8.8.8.8',
      '0:0:0:0:0:ffff:7f00:1',
      '0:0:0:0:0:0:0:1',
      '::127.0.0.1',
      'fe80::1',
      'fe80::1%eth0',
      'febf::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '64:ff9b::7f00:1',
      '64:ff9b::10.0.0.1',
      '2002:7f00:1::1',
      '2002:c0a8:101::1',
      // IPv4-translated (SIIT ::ffff:0:0:0/96): a translator turns it into an IPv4 connection.
      '::ffff:0:127.0.0.1',
      '::ffff:0:7f00:1',
      '0:0:0:0:ffff:0:7f00:1',
      '::ffff:0:10.0.0.1',
      '::ffff:0:8.8.8.8',
      // Local-use NAT64 (64:ff9b:1::/48) is a private network's own translator.
      '64:ff9b:1::7f00:1',
      '64:ff9b:1::808:808',
      // Teredo carries the client's IPv4 address inverted in its last 32 bits (here 127.0.0.1).
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      'not-an-ip',
      '',
    ];
    const allowed = [
      '8.8.8.8',
      '1.1.1.1',
      '93.184.215.14',
      '100.63.255.255',
      '100.128.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '192.169.0.1',
      '2001:4860:4860::8888',
      '2606:4700::1111',
      '64:ff9b::808:808',
      '2002:808:808::1',
      '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
    ];
    expect(forbidden.filter((a) => !isForbiddenAddress(a))).toEqual([]);
    expect(allowed.filter((a) => isForbiddenAddress(a))).toEqual([]);
  });
});

describe('isPublicUrl decides on resolved addresses', () => {
  const dns: Record<string, string[]> = {
    'rebind.test': ['127.0.0.1'],
    'mapped.test': ['::ffff:0.0.0.0'],
    'mixed.test': ['93.184.215.14', '10.0.0.7'],
    'metadata.test': ['169.254.169.254'],
    'public.test': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  };
  const lookup: LookupAll = async (host) => {
    const found = dns[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found;
  };

  it('refuses names resolving to any forbidden address, and literal forms of them', async () => {
    const refused = [
      'http://rebind.test/a.png',
      'https://mapped.test/',
      'http://mixed.test/',
      'http://metadata.test/latest/meta-data',
      'http://localhost/',
      'http://a.localhost:8080/',
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://127.1/',
      'http://[::1]/',
      'http://[::ffff:0.0.0.0]/',
      'http://[::ffff:127.0.0.1]:80/',
      'http://0/',
      'http://10.0.0.1/',
      'file:///etc/passwd',
      'ftp://public.test/',
      'not a url',
    ];
    for (const url of refused) expect([url, await isPublicUrl(url, lookup)]).toEqual([url, false]);
  });

  it('passes public addresses, and names that resolve nowhere (the resolver decides)', async () => {
    for (const url of [
      'https://public.test/x.css',
      'http://8.8.8.8/',
      'https://[2606:4700::1111]/',
      'https://assets.test/font.ttf',
    ]) {
      expect([url, await isPublicUrl(url, lookup)]).toEqual([url, true]);
    }
  });

  it('refuses when the lookup fails otherwise', async () => {
    const broken: LookupAll = async () => {
      throw Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    };
    expect(await isPublicUrl('https://public.test/', broken)).toBe(false);
  });

  it('loadResource never calls the resolver for a forbidden host', async () => {
    const asked: string[] = [];
    const resolver: ResourceResolver = async (url) => {
      asked.push(url);
      return { body: new Uint8Array([1]) };
    };
    expect(await loadResource('http://rebind.test/x', 'image', resolver, { maxBytes: 10, lookup })).toBeNull();
    expect(await loadResource('http://[::ffff:7f00:1]/x', 'image', resolver, { maxBytes: 10, lookup })).toBeNull();
    expect(await loadResource('https://public.test/x', 'image', resolver, { maxBytes: 10, lookup })).not.toBeNull();
    expect(asked).toEqual(['https://public.test/x']);
  });
});

describe('Markdown and fill apply the same check', () => {
  let server: Server;
  let port = 0;
  let hits = 0;
  let png: Buffer;
  /** A resolver that really fetches whatever it is given: only the engine's check keeps loopback out. */
  const fetching: ResourceResolver = async (url) => {
    const res = await fetch(url);
    return { body: new Uint8Array(await res.arrayBuffer()), contentType: res.headers.get('content-type') ?? undefined };
  };
  beforeAll(async () => {
    png = Buffer.from((await pngDataUrl(8, 8)).split(',')[1]!, 'base64');
    server = createServer((_req, res) => {
      hits++;
      res.setHeader('content-type', 'image/png');
      res.end(png);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it('the loopback listener is reachable by the resolver itself (so the checks below can fail)', async () => {
    const before = hits;
    await fetching(`http://127.0.0.1:${port}/probe.png`, 'image');
    expect(hits).toBe(before + 1);
  });

  it('the ready resolver refuses every IPv6 spelling of loopback before connecting', async () => {
    const resolve = httpResolver({ timeoutMs: 5000 });
    const before = hits;
    for (const host of ['::ffff:0:127.0.0.1', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::7f00:1', '::127.0.0.1']) {
      const refused = await resolve(`http://[${host}]:${port}/x.png`, 'image').catch((e: unknown) => e);
      expect([host, refused instanceof FetchRefused && refused.message]).toEqual([
        host,
        expect.stringMatching(/not a public address/),
      ]);
    }
    expect(hits).toBe(before);
  });

  it('Markdown images and fill image fields never reach loopback through a resolver', async () => {
    const engine = createEngine({ resolver: fetching });
    const before = hits;
    try {
      const urls = [
        `http://127.0.0.1:${port}/md.png`,
        `http://localhost:${port}/md.png`,
        `http://[::ffff:127.0.0.1]:${port}/md.png`,
        `http://2130706433:${port}/md.png`,
      ];
      await engine.generate({ logo: false, data: [{ content: urls.map((u) => `![x](${u})`).join(' ') + ' text' }] });
      const f = field('imageFile', { id: 'img', rect: { x: 100, y: 100, width: 50, height: 50 } });
      for (const url of urls) await engine.fill(await template([f]), { data: { img: url } });
      expect(hits).toBe(before);
    } finally {
      await engine.close();
    }
  });
});
