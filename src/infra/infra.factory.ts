import type { Redis } from 'ioredis';
import type { Cache } from './cache.types';
import type { Infra, InfraErrorHandler, InfraOptions } from './infra.types';
import { MemoryCache } from './memory-cache';
import { MemoryPubSub } from './memory-pubsub';
import type { PubSubOptions } from './pubsub-support';
import { MemoryRateLimiter } from './memory-rate-limiter';
import type { PubSub } from './pubsub.types';
import type { RateLimiter } from './rate-limiter.types';
import { RedisCache } from './redis-cache';
import { closeRedisClient, createRedisClient } from './redis-connection';
import { RedisPubSub } from './redis-pubsub';
import { RedisRateLimiter } from './redis-rate-limiter';

const DEFAULT_ITERATOR_BUFFER = 1_000;
const DEFAULT_MEMORY_CACHE_ENTRIES = 10_000;
const PING_TIMEOUT_MS = 2_000;

/**
 * Builds the infra bundle: Redis-backed when `redisUrl` is set, in-process
 * otherwise. With Redis, both connections are established before this
 * resolves, so a wrong URL or an unreachable server fails start-up with the
 * connection error instead of surfacing later on the first request.
 */
export async function createInfra(opts: InfraOptions): Promise<Infra> {
  const onError: InfraErrorHandler = opts.onError ?? (() => undefined);
  const pubsubOptions: PubSubOptions = {
    onError,
    onDeliveryLag: opts.onDeliveryLag,
    onIteratorDrop: opts.onIteratorDrop,
    iteratorBufferSize: positiveInt(opts.iteratorBufferSize ?? DEFAULT_ITERATOR_BUFFER, 'iteratorBufferSize'),
  };
  if (opts.redisUrl) return createRedisInfra(opts.redisUrl, opts.keyPrefix ?? '', pubsubOptions);
  return new MemoryInfra(opts, pubsubOptions);
}

async function createRedisInfra(url: string, keyPrefix: string, pubsubOptions: PubSubOptions): Promise<Infra> {
  const command = createRedisClient(url, 'command', pubsubOptions.onError);
  const subscriber = createRedisClient(url, 'subscriber', pubsubOptions.onError);
  try {
    await Promise.all([command.connect(), subscriber.connect()]);
  } catch (error) {
    await Promise.all([closeRedisClient(command), closeRedisClient(subscriber)]);
    throw error;
  }
  return new RedisInfra(command, subscriber, keyPrefix, pubsubOptions);
}

class RedisInfra implements Infra {
  readonly kind = 'redis';
  readonly cache: Cache;
  readonly pubsub: PubSub;
  readonly rateLimiter: RateLimiter;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly command: Redis,
    private readonly subscriber: Redis,
    keyPrefix: string,
    pubsubOptions: PubSubOptions,
  ) {
    this.cache = new RedisCache(command, keyPrefix, pubsubOptions.onError);
    this.pubsub = new RedisPubSub(command, subscriber, keyPrefix, pubsubOptions);
    this.rateLimiter = new RedisRateLimiter(command, keyPrefix);
  }

  async ping(): Promise<boolean> {
    if (this.closing || this.subscriber.status !== 'ready') return false;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
    });
    try {
      const answered = this.command.ping().then(
        (reply) => reply === 'PONG',
        () => false,
      );
      return await Promise.race([answered, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      // Subscriber first: ending iterators may still unsubscribe, and the
      // command connection must outlive any in-flight publish.
      await this.pubsub.close();
      await closeRedisClient(this.command);
    })();
    return this.closing;
  }
}

class MemoryInfra implements Infra {
  readonly kind = 'memory';
  readonly cache: MemoryCache;
  readonly pubsub: MemoryPubSub;
  readonly rateLimiter: MemoryRateLimiter;
  private closed = false;

  constructor(opts: InfraOptions, pubsubOptions: PubSubOptions) {
    const now = opts.now ?? Date.now;
    this.cache = new MemoryCache({
      maxEntries: positiveInt(opts.memoryCacheMaxEntries ?? DEFAULT_MEMORY_CACHE_ENTRIES, 'memoryCacheMaxEntries'),
      now,
      onError: pubsubOptions.onError,
    });
    this.pubsub = new MemoryPubSub({ ...pubsubOptions, now });
    this.rateLimiter = new MemoryRateLimiter({ now });
  }

  async ping(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pubsub.close();
    this.cache.close();
    this.rateLimiter.close();
  }
}

function positiveInt(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be an integer >= 1, got ${value}`);
  return value;
}
