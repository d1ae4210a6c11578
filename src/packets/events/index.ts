/** Outbox delivery: webhooks and email. */
export { OutboxDispatcher, DeliveryRefused, backoffMs } from './dispatcher.js';
export type { RetryPolicy, DispatcherOptions, OutboxHandler, Delivered } from './dispatcher.js';
export { smtpMailer, folderMailer } from './mail.js';
export type { Mailer, MailMessage, SmtpOptions } from './mail.js';
export { postWebhook, webhookSignature } from './webhook.js';
export type { WebhookTarget, WebhookPolicy } from './webhook.js';
