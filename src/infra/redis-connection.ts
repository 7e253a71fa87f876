import { Redis, type RedisOptions } from 'ioredis';
import type { InfraErrorHandler } from './infra.types';

/** What a connection is used for; the two need different client options. */
export type RedisConnectionRole = 'command' | 'subscriber';

const CLOSE_TIMEOUT_MS = 2_000;
const RETRY_STEP_MS = 50;
/** Reconnect backoff cap: Redis coming back is noticed within this (plus the breaker's probe). */
const MAX_RETRY_DELAY_MS = 1_000;

/** Default bound of one command on a command connection once it has been ready (ms). */
export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 1_000;

/** Options of {@link createRedisClient}. */
export interface RedisClientOptions {
  /**
   * Command connections: how long one command may take once the connection has been ready (ms)
   * before it fails (and the caller falls back). Default {@link DEFAULT_REDIS_COMMAND_TIMEOUT_MS}.
   */
  commandTimeoutMs?: number;
}

/**
 * Creates a not-yet-connected client with an 'error' listener attached, so a
 * Redis outage is reported instead of crashing the process with an unhandled
 * 'error' event.
 *
 * Subscriber connections set `enableReadyCheck: false` and
 * `disableClientInfo: true`. ioredis 5.8–5.11 write SUBSCRIBE during the
 * connect handshake; the INFO ready check that follows is then refused in
 * subscriber mode, the client reconnects and the subscription silently
 * vanishes (ioredis #2037). Skipping the CLIENT SETINFO handshake also removes
 * the asynchronous window in which ioredis 5.11 can stop reconnecting for good
 * when the ready check is off (ioredis #2099). A SUBSCRIBE sent while the
 * connection is down waits for it (`maxRetriesPerRequest: null`): a
 * subscription is kept for when Redis is back.
 *
 * Command connections fail fast once they have been ready: no offline queue (a
 * command while disconnected fails at once instead of waiting for the
 * reconnect), commands in flight when the connection drops fail at once
 * (`maxRetriesPerRequest: 0`), and each command is bounded by
 * `commandTimeoutMs` (a Redis that accepts connections but does not answer).
 * A request path's cache or rate-limit call then costs no more than that, and
 * the callers fall back (redis-guard.ts).
 *
 * Until a client has been ready once it does not retry: a wrong URL or a
 * server that is down fails start-up at once and leaves no reconnect timer.
 * After that it reconnects forever with capped backoff (and ioredis
 * re-subscribes the subscriber's channels).
 */
export function createRedisClient(
  url: string,
  role: RedisConnectionRole,
  onError: InfraErrorHandler,
  opts: RedisClientOptions = {},
): Redis {
  let everReady = false;
  const retryStrategy = (attempt: number): number | null =>
    everReady ? Math.min(attempt * RETRY_STEP_MS, MAX_RETRY_DELAY_MS) : null;
  const options: RedisOptions =
    role === 'subscriber'
      ? {
          lazyConnect: true,
          enableReadyCheck: false,
          disableClientInfo: true,
          maxRetriesPerRequest: null,
          retryStrategy,
        }
      : { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy };
  const client = new Redis(url, options);
  client.once('ready', () => {
    everReady = true;
    if (role === 'command') {
      // Read by ioredis per command: from now on a command never waits for a connection.
      client.options.enableOfflineQueue = false;
      client.options.commandTimeout = opts.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
    }
  });
  const source = role === 'subscriber' ? 'redis:subscriber' : 'redis:command';
  client.on('error', (error: Error) => onError(error, source));
  return client;
}

/**
 * Closes a client without leaving sockets or timers behind: QUIT when
 * connected (pending replies still arrive), bounded by a timeout, then a hard
 * disconnect that also cancels any scheduled reconnect.
 *
 * Known ioredis limit: closing while the client waits to reconnect (Redis
 * down) makes ioredis arm its `disconnectTimeout` (2 s) timer on the already
 * closed socket; nothing clears it, so the process may linger up to 2 s.
 */
export async function closeRedisClient(client: Redis): Promise<void> {
  const status = client.status;
  if (status === 'end') return;
  // Only these states emit 'end' after disconnect(); a client waiting to
  // reconnect just drops its timer, so waiting for 'end' would stall.
  const emitsEnd = status === 'wait' || status === 'connecting' || status === 'connect' || status === 'ready';
  const ended = emitsEnd ? waitForEnd(client) : Promise.resolve();
  if (status === 'ready') await settleWithin(client.quit(), CLOSE_TIMEOUT_MS);
  if (client.status !== 'end') client.disconnect();
  await ended;
}

function waitForEnd(client: Redis): Promise<void> {
  return settleWithin(new Promise<void>((resolve) => client.once('end', () => resolve())), CLOSE_TIMEOUT_MS);
}

/** Waits for `promise` to settle (either way) or `ms` to pass, leaving no timer behind. */
async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([
      promise.then(
        () => undefined,
        () => undefined,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
