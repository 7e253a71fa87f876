import type { Cache } from './cache.types';
import type { DependencyHealth } from './dependency-health';
import type { PubSub } from './pubsub.types';
import type { RateLimiter } from './rate-limiter.types';

/**
 * Where an error reported to {@link InfraOptions.onError} came from, so the
 * caller's logger can tag it without parsing messages.
 */
export type InfraErrorSource =
  'redis:command' | 'redis:subscriber' | 'cache' | 'pubsub:listener' | 'pubsub:message' | 'pubsub:unsubscribe';

/** Receives errors that have no caller to reject (connection errors, listener throws). */
export type InfraErrorHandler = (error: Error, source: InfraErrorSource) => void;

/** Cache, pub/sub and rate limiter behind one lifecycle. */
export interface Infra {
  readonly kind: 'redis' | 'memory';
  readonly cache: Cache;
  readonly pubsub: PubSub;
  readonly rateLimiter: RateLimiter;
  /** Redis: PING answered and the subscriber connection is up. Memory: true until closed. */
  ping(): Promise<boolean>;
  /** Ends iterators, clears timers and quits Redis connections. Idempotent. */
  close(): Promise<void>;
}

/** Options for {@link createInfra}. */
export interface InfraOptions {
  /** When set (redis:// or rediss://), every component is backed by Redis; otherwise in-process. */
  redisUrl?: string;
  /** Prefix for every Redis key and channel, so tests and deployments can share one Redis. */
  keyPrefix?: string;
  /**
   * Called for each delivered pub/sub message with the time between publish and delivery (for a lag
   * metric), naming the topic's family (`market-updates` for `market-updates#venue_a#<id>`).
   */
  onDeliveryLag?: (topic: string, lagMs: number) => void;
  /**
   * Receives Redis connection errors while connecting at start, and other
   * errors with no caller to reject. Without it they are swallowed, never
   * raised as an unhandled 'error' event; pass a logger in production.
   * Connection errors after start are an outage, reported to `redisHealth`.
   */
  onError?: InfraErrorHandler;
  /**
   * Redis's reachability as the process reports it: told once when Redis
   * becomes unreachable (a connection fails or commands keep failing) and
   * once when it is back (both connections ready, a probe answered).
   */
  redisHealth?: DependencyHealth;
  /** How long one Redis command may take before it fails and its caller falls back (ms). Default 1000. */
  commandTimeoutMs?: number;
  /** Called once per message an iterator discards because its consumer is too slow. */
  onIteratorDrop?: (topic: string) => void;
  /** Messages an iterator buffers for a slow consumer before dropping the oldest. Default 1000. */
  iteratorBufferSize?: number;
  /** Entry cap of the in-process cache (least recently used entries are evicted). Default 10,000. */
  memoryCacheMaxEntries?: number;
  /** Clock for memory implementations (tests). Redis implementations use the Redis server clock or wall time. */
  now?: () => number;
}
