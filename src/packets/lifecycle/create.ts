/**
 * A packet workflow ready to run: the service, and the outbox dispatcher that
 * delivers its webhooks and emails. Both are explicit objects the caller closes.
 */
import type { RetryPolicy } from '../events/dispatcher.js';
import { OutboxDispatcher } from '../events/dispatcher.js';
import { folderMailer, type Mailer } from '../events/mail.js';
import { postWebhook, type WebhookPolicy } from '../events/webhook.js';
import type { OutboxKind } from '../store/index.js';
import { AppearanceWriter } from '../../signing/index.js';
import { createPacketAssembler } from '../assemble/assembler.js';
import type { DocxConverterOptions } from '../docx/convert.js';
import type { PacketServiceOptions } from './core/context.js';
import { PacketService } from './service.js';
import { inProcessWork } from './core/work.js';

export interface PacketWorkflowOptions extends Omit<PacketServiceOptions, 'onEvents' | 'webhook'> {
  /** Where emails go: an SMTP mailer (`smtpMailer`), or by default `.eml` files in `mailDir`. */
  mailer?: Mailer;
  /** Folder of the `.eml` outbox when no mailer is given; default `./castpress-data/mail`. */
  mailDir?: string;
  /** The organization's webhook: URL (a packet's `webhookURL` replaces it), the body's `token`, an optional HMAC secret. */
  webhook?: { url?: string; token?: string; secret?: string } & WebhookPolicy;
  retry?: RetryPolicy;
  /** How often the dispatcher looks for due events; default 1 s. */
  pollMs?: number;
  /** Start delivering at once (default true); false for tests that call `dispatcher.drain()`. */
  deliver?: boolean;
  onDeliveryError?: (event: { id: string; kind: OutboxKind; attempts: number; error: string; final: boolean }) => void;
  /** DOCX uploads' LibreOffice converter (concurrency, deadline, memory limit, sandbox: docs/reference/packets.md), when assembly runs in-process. */
  docx?: DocxConverterOptions;
}

export interface PacketWorkflow {
  service: PacketService;
  dispatcher: OutboxDispatcher;
  /** Stops delivering and ends the workflow's DOCX converter (the store and engine stay the caller's). */
  close(): Promise<void>;
}

export function createPacketWorkflow(options: PacketWorkflowOptions): PacketWorkflow {
  const mailer = options.mailer ?? folderMailer(options.mailDir ?? 'castpress-data/mail');
  const webhook = options.webhook ?? {};
  let dispatcher: OutboxDispatcher | undefined;
  // In-process work assembles with an assembler the workflow owns (its LibreOffice converter), closed with it.
  const assembler = options.work
    ? undefined
    : createPacketAssembler(options.engine, options.docx ? { docx: options.docx } : {});
  const work =
    options.work ??
    inProcessWork(options.engine, options.identity, options.writer ?? new AppearanceWriter(), assembler, options.seal);
  const service = new PacketService({
    ...options,
    work,
    webhook: { url: webhook.url, token: webhook.token },
    onEvents: () => dispatcher?.poke(),
  });
  dispatcher = new OutboxDispatcher({
    store: options.store,
    retry: options.retry,
    // Delivery runs on real time (back-off waits are real waits), whatever clock the service is given.
    pollMs: options.pollMs,
    onError: options.onDeliveryError,
    handlers: {
      webhook: async (event) => {
        const w = service.webhookOf(event);
        // The packet's organization's token and secret (also for a packet's own webhookURL), else the workflow's.
        const own = w.organization !== undefined ? options.organizations?.(w.organization)?.webhook : undefined;
        const token = own?.token ?? webhook.token ?? '';
        const secret = own?.hmacSecret ?? webhook.secret;
        return postWebhook(
          { url: w.url, token, ...(secret ? { secret } : {}) },
          { id: event.id, action: w.action, data: w.data },
          webhook,
          new Date(),
        );
      },
      email: async (event) => {
        const message = await service.composeMail(event);
        if (message) await mailer.send(message);
      },
    },
  });
  if (options.deliver !== false) dispatcher.start();
  return {
    service,
    dispatcher,
    async close() {
      await dispatcher!.close();
      await mailer.close?.();
      assembler?.close();
    },
  };
}
