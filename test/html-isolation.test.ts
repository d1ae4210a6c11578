import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../src/html/index.js';
import type { ResourceResolver } from '../src/resources/index.js';
import { outcome } from './helpers/outcome.js';

/**
 * A raw TCP listener on loopback counts every connection Chromium opens to it,
 * whatever the protocol (HTTP, WebSocket, TURN, a bare port probe). Documents
 * point every kind of outgoing reference at it; the only correct count is 0.
 */
let server: Server;
let port = 0;
let accepted = 0;
const sockets = new Set<Socket>();
/** STUN/TURN over UDP would not show on a TCP listener: a UDP socket counts datagrams. */
let udp: UdpSocket;
let udpPort = 0;
let datagrams = 0;

/** Really fetches whatever it is asked for: only the engine's guard keeps the listener unreached from Node too. */
const resolver: ResourceResolver = async (url) => {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  return { body: new Uint8Array(await res.arrayBuffer()), contentType: res.headers.get('content-type') ?? undefined };
};

beforeAll(async () => {
  server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    // Answer like a web server would, so a client that got through could go on.
    socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 2\r\n\r\nok'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  udp = createSocket('udp4');
  udp.on('message', () => datagrams++);
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', r));
  udpPort = udp.address().port;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
  await new Promise<void>((r) => udp.close(() => r()));
});

function documents(): Record<string, string> {
  const L = `http://127.0.0.1:${port}`;
  const hosts = [
    `127.0.0.1:${port}`,
    `localhost:${port}`,
    `[::ffff:127.0.0.1]:${port}`,
    `[::ffff:0.0.0.0]:${port}`,
    `0.0.0.0:${port}`,
    `2130706433:${port}`,
    `127.1:${port}`,
    `0x7f.0.0.1:${port}`,
  ];
  const imgs = hosts.map((h) => `<img src="http://${h}/img.png">`).join('');
  return {
    hints: `<link rel="prefetch" href="${L}/admin/delete?id=42"><link rel="preconnect" href="${L}"><link rel="dns-prefetch" href="${L}">
      <link rel="prerender" href="${L}/prerender"><link rel="preload" as="image" href="${L}/preload.png"><link rel="modulepreload" href="${L}/m.js"><p>hints</p>`,
    speculation: `<script type="speculationrules">{"prefetch":[{"source":"list","urls":["${L}/spec-prefetch"]}],"prerender":[{"source":"list","urls":["${L}/spec-prerender"]}]}</script><a href="${L}/link">link</a>`,
    frames: `<iframe src="${L}/frame"></iframe><object data="${L}/object"></object><embed src="${L}/embed"><iframe srcdoc="<img src='${L}/srcdoc.png'>"></iframe><p>frames</p>`,
    refresh: `<meta http-equiv="refresh" content="0; url=${L}/refresh"><p>refresh</p>`,
    subresources: `${imgs}<link rel="stylesheet" href="${L}/s.css"><script src="${L}/s.js"></script><style>@import url(${L}/i.css); body { background: url(${L}/bg.png) }</style>
      <video poster="${L}/poster.png" src="${L}/v.mp4"></video><audio src="${L}/a.mp3" autoplay></audio><p>subresources</p>`,
    scripts: `<p>scripts</p><script>
      const L = ${JSON.stringify(L)};
      const swallow = (f) => { try { const r = f(); if (r && r.catch) r.catch(() => {}); } catch {} };
      swallow(() => fetch(L + '/fetch'));
      swallow(() => fetch(L + '/fetch-no-cors', { mode: 'no-cors' }));
      swallow(() => { const x = new XMLHttpRequest(); x.open('GET', L + '/xhr'); x.send(); });
      swallow(() => new WebSocket('ws://127.0.0.1:${port}/ws'));
      swallow(() => navigator.sendBeacon(L + '/beacon', 'x'));
      swallow(() => new EventSource(L + '/events'));
      swallow(() => new Image().src = L + '/js-img.png');
      swallow(() => navigator.serviceWorker.register(L + '/sw.js'));
      swallow(() => navigator.serviceWorker.register('data:text/javascript,1'));
      swallow(() => new Worker(L + '/worker.js'));
      swallow(() => { const w = window.open(L + '/popup'); });
      swallow(() => {
        const pc = new RTCPeerConnection({ iceServers: [
          { urls: ['turn:127.0.0.1:${port}?transport=tcp', 'turn:127.0.0.1:${udpPort}?transport=udp'], username: 'u', credential: 'p' },
          { urls: 'stun:127.0.0.1:${udpPort}' } ] });
        pc.createDataChannel('d');
        pc.createOffer().then((o) => pc.setLocalDescription(o)).catch(() => {});
      });
      swallow(() => { const s = document.createElement('script'); s.type = 'speculationrules';
        s.textContent = JSON.stringify({ prefetch: [{ source: 'list', urls: [L + '/js-spec'] }] }); document.head.append(s); });
      swallow(() => { location.href = L + '/navigate'; });
    </script>`,
  };
}

async function connectionsDuring(pool: BrowserPool): Promise<{ count: number; statuses: Record<string, string> }> {
  const before = accepted + datagrams;
  const statuses: Record<string, string> = {};
  for (const [name, html] of Object.entries(documents())) {
    statuses[name] = await outcome(pool, { html });
  }
  // Stray connections (timers, prefetch queues, ICE gathering) get one second per mode.
  await new Promise((r) => setTimeout(r, 1000));
  return { count: accepted + datagrams - before, statuses };
}

describe('Chromium opens no connection to anything', () => {
  it('with JavaScript off', async () => {
    const pool = new BrowserPool({ resolver, jobTimeoutMs: 10_000 });
    try {
      const { count, statuses } = await connectionsDuring(pool);
      expect(count).toBe(0);
      expect(statuses).toEqual({
        hints: 'pdf',
        speculation: 'pdf',
        frames: 'pdf',
        refresh: 'pdf',
        subresources: 'pdf',
        scripts: 'pdf',
      });
    } finally {
      await pool.close();
    }
  });

  it('with JavaScript on', async () => {
    const pool = new BrowserPool({ resolver, javaScriptEnabled: true, jobTimeoutMs: 10_000 });
    try {
      const { count, statuses } = await connectionsDuring(pool);
      expect(count).toBe(0);
      // The script document also sets `location`: a navigation is refused with a 400.
      expect(statuses).toEqual({
        hints: 'pdf',
        speculation: 'pdf',
        frames: 'pdf',
        refresh: 'pdf',
        subresources: 'pdf',
        scripts: 'ValidationError 400',
      });
    } finally {
      await pool.close();
    }
  });
});
