/**
 * Real peers for workflow tests: a webhook receiver on loopback that can fail its
 * first deliveries, and an SMTP sink (smtp-server) that keeps the mails it receives.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { openPostgresStore, openSqliteStore, type PacketStore } from '../../src/packets/index.js';
import { PostgresServer } from './postgres.js';

/** Reads until `ok` holds or `ms` pass, then returns the last value read (the test's own expect says what was missing). */
export async function until<T>(read: () => T | Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The two stores a workflow test runs on, for `describe.each(kinds.stores)`: SQLite in a new
 * folder of `dir()` (read when a store opens), and a PostgreSQL server started on first use.
 */
export function workflowStores(dir: () => string): {
  stores: Array<[string, () => Promise<PacketStore>]>;
  stop: () => Promise<void>;
} {
  let postgres: PostgresServer | undefined;
  return {
    stores: [
      ['embedded store (SQLite)', () => openSqliteStore({ dir: path.join(dir(), `sqlite-${Date.now()}`) })],
      [
        'PostgreSQL',
        async () => {
          postgres ??= await PostgresServer.start();
          return openPostgresStore({ connectionString: postgres.connectionString });
        },
      ],
    ],
    stop: async () => postgres?.stop(),
  };
}

export interface ReceivedHook {
  headers: http.IncomingHttpHeaders;
  body: { action: string; token: string; data: Record<string, unknown> };
  raw: string;
  status: number;
}

export class WebhookReceiver {
  readonly hits: ReceivedHook[] = [];
  /** Answer 500 to this many deliveries before accepting. */
  failFirst = 0;
  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<WebhookReceiver> {
    let self: WebhookReceiver | undefined;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const status = self!.failFirst > 0 ? 500 : 200;
        if (self!.failFirst > 0) self!.failFirst--;
        self!.hits.push({ headers: req.headers, body: JSON.parse(raw) as ReceivedHook['body'], raw, status });
        res.statusCode = status;
        res.end(status === 200 ? 'ok' : 'try again');
      });
    });
    self = new WebhookReceiver(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return self;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  get host(): string {
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  accepted(action?: string): ReceivedHook[] {
    return this.hits.filter((h) => h.status === 200 && (action === undefined || h.body.action === action));
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

export interface SunkMail {
  from: string;
  to: string[];
  raw: string;
}

export class SmtpSink {
  readonly mails: SunkMail[] = [];
  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(): Promise<SmtpSink> {
    let self: SmtpSink | undefined;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          self!.mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.server.address() as AddressInfo).port;
    self = new SmtpSink(server, port);
    return self;
  }

  to(address: string): SunkMail[] {
    return this.mails.filter((m) => m.to.includes(address));
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

/** The signing link in a mail (quoted-printable soft breaks undone). */
export function linkIn(raw: string): { signerEid: string; token: string } {
  const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const m = /\/sign\/([^?\s]+)\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!m) throw new Error(`No signing link in:\n${text}`);
  return { signerEid: decodeURIComponent(m[1]!), token: m[2]! };
}

export function tokenOf(url: string): { signerEid: string; token: string } {
  const u = new URL(url);
  return { signerEid: decodeURIComponent(u.pathname.split('/').pop()!), token: u.searchParams.get('token')! };
}
