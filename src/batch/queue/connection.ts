import type { Redis, RedisOptions } from 'ioredis';
import { ValidationError } from '../../errors/index.js';

/** The queue's name when none is given: producers and workers must agree on it. */
export const DEFAULT_QUEUE_NAME = 'castpress';

/** Where a queue lives: a `redis://[user:password@]host:port/db` URL, or ioredis options. */
export type QueueConnection = string | RedisOptions;

/**
 * Opens a Redis connection for BullMQ. BullMQ 6 loads no driver by itself from ESM,
 * so it gets an ioredis instance. `maxRetriesPerRequest: null` (BullMQ requires it
 * for workers, and the producer's progress loop wants the same) makes commands wait
 * through a Redis restart instead of failing; ioredis reconnects on its own.
 * Callers own the connection and quit it when done.
 */
export async function openRedis(connection: QueueConnection, readyTimeoutMs = 10_000): Promise<Redis> {
  const redis = await create(connection);
  // Connection errors are retried by ioredis; report them once, not on every attempt.
  let reported = false;
  redis.on('error', (e: Error) => {
    if (!reported) process.emitWarning(`Redis: ${e.message} (reconnecting)`);
    reported = true;
  });
  redis.on('ready', () => (reported = false));
  // A wrong address would otherwise make every command wait forever.
  if (redis.status !== 'ready') {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        redis.disconnect();
        reject(
          ValidationError.of('queue', `Cannot reach Redis at ${describe(connection)} within ${readyTimeoutMs} ms`),
        );
      }, readyTimeoutMs);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  return redis;
}

function describe(connection: QueueConnection): string {
  if (typeof connection !== 'string') return `${connection.host ?? '127.0.0.1'}:${connection.port ?? 6379}`;
  const url = new URL(connection);
  url.password = '';
  return url.href;
}

async function create(connection: QueueConnection): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const options: RedisOptions = { maxRetriesPerRequest: null, retryStrategy: (times) => Math.min(times * 200, 2000) };
  if (typeof connection === 'string') {
    let url: URL;
    try {
      url = new URL(connection);
    } catch {
      throw ValidationError.of('queue', `Not a Redis URL: ${connection}`);
    }
    if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
      throw ValidationError.of('queue', `The queue URL must start with redis:// or rediss:// (got ${url.protocol})`);
    return new Redis(connection, options);
  }
  return new Redis({ ...connection, ...options });
}
