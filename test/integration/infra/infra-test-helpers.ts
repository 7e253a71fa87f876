import { randomUUID } from 'node:crypto';
import { createInfra, type Infra, type InfraOptions } from '../../../src/infra';

/**
 * Redis for the integration tests: set REDIS_URL to run the Redis side (CI's
 * second pass does). Embedded runs on a machine with no Redis test memory only.
 */
export const REDIS_URL = process.env.REDIS_URL ?? '';

export type Kind = 'memory' | 'redis';
/** The backends to test; behavioural suites run once per kind. */
export const KINDS: readonly Kind[] = REDIS_URL ? ['memory', 'redis'] : ['memory'];

/** `describe` when Redis is configured, else `describe.skip`. */
export const describeRedis = REDIS_URL ? describe : describe.skip;

/** A fresh namespace so tests (and parallel workers) never see each other's keys. */
export function randomPrefix(): string {
  return `test:infra:${randomUUID()}:`;
}

/** Creates an infra of `kind` with a random key prefix unless one is given. */
export function makeInfra(kind: Kind, extra: Omit<InfraOptions, 'redisUrl'> = {}): Promise<Infra> {
  return createInfra({
    keyPrefix: randomPrefix(),
    ...extra,
    redisUrl: kind === 'redis' ? REDIS_URL : undefined,
  });
}

/** A promise plus its resolvers, for holding a load open while concurrent callers pile up. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
