/**
 * Webhook delivery: an HTTP POST of `{action, token, data}` as JSON, with the event id
 * (the same on every attempt, so receivers can drop duplicates) and, when a secret is
 * configured, an HMAC-SHA256 signature of `<timestamp>.<body>` (an extension: the spec
 * shows only the body's `token`). The host is resolved once and the checked address is
 * the one connected to; loopback and private addresses only for allowed hosts.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { checkedAddress, pinnedLookup } from '../../resources/index.js';
import { DeliveryRefused, type Delivered } from './dispatcher.js';

export interface WebhookTarget {
  url: string;
  /** The `token` of the body: the value chosen when the webhook was set up. */
  token: string;
  /** Signs each delivery (header `X-Castpress-Signature: t=<seconds>,v1=<hex>`). */
  secret?: string;
}

export interface WebhookPolicy {
  /** `host` or `host:port` allowed to resolve to loopback or private addresses (tests, an internal receiver). */
  allowHosts?: readonly string[];
  /** Per attempt; default 10 s. */
  timeoutMs?: number;
}

const EVENT_ID_HEADER = 'x-castpress-event-id';
const SIGNATURE_HEADER = 'x-castpress-signature';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` */
export function webhookSignature(secret: string, body: string, seconds: number): string {
  const mac = createHmac('sha256', secret).update(`${seconds}.${body}`).digest('hex');
  return `t=${seconds},v1=${mac}`;
}

/**
 * Delivers one event; resolves with the receiver's code on a 2xx answer, throws otherwise (the outbox
 * retries): `DeliveryRefused` with the code when the receiver answered.
 */
export async function postWebhook(
  target: WebhookTarget,
  event: { id: string; action: string; data: unknown },
  policy: WebhookPolicy,
  now: Date,
): Promise<Required<Delivered>> {
  const url = new URL(target.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`Refused: ${url.protocol} webhook URL`);
  const timeoutMs = policy.timeoutMs ?? 10_000;
  // The same address check as for fetching: loopback and private addresses only for allowed hosts.
  const pinned = await checkedAddress(url, policy.allowHosts ?? [], AbortSignal.timeout(timeoutMs));
  const body = JSON.stringify({ action: event.action, token: target.token, data: event.data });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'user-agent': 'castpress-webhooks',
    [EVENT_ID_HEADER]: event.id,
  };
  if (target.secret)
    headers[SIGNATURE_HEADER] = webhookSignature(target.secret, body, Math.floor(now.getTime() / 1000));
  const client = url.protocol === 'https:' ? https : http;
  const lookup = pinnedLookup(pinned);
  return new Promise<Required<Delivered>>((resolve, reject) => {
    const req = client.request(url, { method: 'POST', headers, lookup, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve({ responseCode: status });
        else reject(new DeliveryRefused(`Receiver answered ${status}`, status));
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`No answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
