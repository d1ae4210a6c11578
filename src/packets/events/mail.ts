/**
 * Mail out of the workflow: through SMTP when configured (nodemailer), otherwise
 * written as `.eml` files into an outbox folder, so development needs no mail server.
 * The file is named by the event id, so a second delivery of the same event replaces
 * the first instead of adding a copy.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InsufficientStorageError, isStorageFull } from '../../errors/index.js';

export interface MailMessage {
  /** The outbox event id (also the Message-ID's left part). */
  id: string;
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  /** Inline parts the HTML names by `cid:` (the organization's logo). */
  attachments?: Array<{ cid: string; filename: string; contentType: string; content: Buffer }>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close?(): Promise<void>;
}

export interface SmtpOptions {
  host: string;
  port: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  secure?: boolean;
  auth?: { user: string; pass: string };
  /** Per message; default 15 s. */
  timeoutMs?: number;
  /** Accept self-signed certificates of a local relay. */
  allowSelfSigned?: boolean;
}

const envelope = (m: MailMessage) => ({
  messageId: `<${m.id}@castpress.local>`,
  from: m.from,
  to: m.to,
  replyTo: m.replyTo,
  subject: m.subject,
  text: m.text,
  html: m.html,
  ...(m.attachments ? { attachments: m.attachments } : {}),
});

type Nodemailer = (typeof import('nodemailer'))['default'];

/**
 * nodemailer is imported when the first mail goes out, not when a workflow is set up: a process
 * that sends no mail (the CLI, a worker, the crash test's children) does not load it.
 */
function lazyTransport<T>(make: (nodemailer: Nodemailer) => T): {
  get: () => Promise<T>;
  /** The transport if one was asked for (close() has nothing to close otherwise). */
  made: () => Promise<T> | undefined;
} {
  let transport: Promise<T> | undefined;
  return {
    get: () => (transport ??= import('nodemailer').then((m) => make(m.default))),
    made: () => transport,
  };
}

export function smtpMailer(options: SmtpOptions): Mailer {
  const timeout = options.timeoutMs ?? 15_000;
  const transport = lazyTransport((nodemailer) =>
    nodemailer.createTransport({
      host: options.host,
      port: options.port,
      secure: options.secure ?? false,
      auth: options.auth,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      tls: options.allowSelfSigned ? { rejectUnauthorized: false } : undefined,
    }),
  );
  return {
    async send(m) {
      await (await transport.get()).sendMail(envelope(m));
    },
    async close() {
      const made = transport.made();
      if (made) (await made).close();
    },
  };
}

export function folderMailer(dir: string): Mailer {
  const transport = lazyTransport((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
  );
  return {
    async send(m) {
      const info = await (await transport.get()).sendMail(envelope(m));
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${m.id}.eml`);
      const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        await writeFile(temp, info.message);
        await rename(temp, file);
      } catch (e) {
        // A full disk leaves no partial mail behind; the outbox tries the delivery again later.
        await rm(temp, { force: true }).catch(() => undefined);
        throw isStorageFull(e)
          ? new InsufficientStorageError("The server's disk is full: the mail was not written", 'mail', 507, {
              cause: e,
            })
          : e;
      }
    },
  };
}
