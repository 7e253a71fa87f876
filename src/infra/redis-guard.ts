import { circuitBreaker, CircuitState, ConsecutiveBreaker, handleWhen, type CircuitBreakerPolicy } from 'cockatiel';
import { ReplyError, type Redis } from 'ioredis';
import type { DependencyHealth } from './dependency-health';

/** Consecutive failed commands that open the breaker (one is too few: a stalled event loop can time one out). */
const DEFAULT_FAILURE_THRESHOLD = 3;
/** How long the breaker stays open before a probe (PING) may close it again. */
const DEFAULT_PROBE_AFTER_MS = 1_000;

/**
 * Redis could not serve a command: not connected, the breaker is open, or the command failed on
 * the connection (closed, timed out). The cache, rate limiter and pub/sub catch it and fall back;
 * a reply error (Redis answered, refusing the command) is never this.
 */
export class RedisUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('redis unavailable', { cause });
    this.name = 'RedisUnavailableError';
  }
}

export interface RedisGuardOptions {
  /** Reachability of Redis as the process reports it (once per outage, once per recovery). */
  health: DependencyHealth;
  failureThreshold?: number;
  probeAfterMs?: number;
}

/**
 * Fail-fast access to Redis for one process's cache, rate limiter and pub/sub publisher (they
 * share the command connection and this guard). A command runs only while the command connection
 * is up and the breaker (cockatiel) is closed; otherwise {@link run} throws
 * {@link RedisUnavailableError} at once, without touching the network. Failed commands (anything
 * but a reply error) count towards opening the breaker; while it is open, a background PING every
 * quarter of `probeAfterMs` (cockatiel lets it through once `probeAfterMs` has passed: the
 * half-open probe) closes it as soon as Redis answers. Requests never wait for a probe.
 *
 * {@link DependencyHealth} hears of it: Redis is unavailable from the first failure (a failed
 * command opening the breaker, or a connection closing or failing), and available again once the
 * breaker is closed and both connections are ready.
 */
export class RedisGuard {
  private readonly breaker: CircuitBreakerPolicy;
  private probeTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly command: Redis,
    private readonly subscriber: Redis,
    private readonly opts: RedisGuardOptions,
  ) {
    const probeAfterMs = opts.probeAfterMs ?? DEFAULT_PROBE_AFTER_MS;
    this.breaker = circuitBreaker(
      handleWhen((err) => !(err instanceof ReplyError)),
      {
        halfOpenAfter: probeAfterMs,
        breaker: new ConsecutiveBreaker(opts.failureThreshold ?? DEFAULT_FAILURE_THRESHOLD),
      },
    );
    this.breaker.onBreak((reason) => {
      opts.health.failed('error' in reason ? reason.error : new Error('redis breaker opened'));
      this.probeTimer ??= setInterval(() => this.probe(), Math.max(10, probeAfterMs / 4)).unref();
    });
    this.breaker.onReset(() => {
      clearInterval(this.probeTimer);
      this.probeTimer = undefined;
      this.recoverIfReady();
    });
    for (const client of [command, subscriber]) {
      client.on('ready', () => this.recoverIfReady());
      client.on('close', () => {
        if (!this.closed) opts.health.failed(new Error('redis connection closed'));
      });
    }
  }

  /** Whether a command would be tried now (connected, breaker closed). */
  get available(): boolean {
    return !this.closed && this.breaker.state === CircuitState.Closed && this.command.status === 'ready';
  }

  /**
   * Runs one Redis command (or MULTI) through the breaker. Throws {@link RedisUnavailableError}
   * without running it while Redis is unavailable, or when it failed on the connection; a reply
   * error is rethrown as it is.
   */
  async run<T>(command: () => Promise<T>): Promise<T> {
    if (!this.available) throw new RedisUnavailableError();
    try {
      return await this.breaker.execute(command);
    } catch (err) {
      if (err instanceof ReplyError) throw err;
      throw new RedisUnavailableError(err);
    }
  }

  /** A connection error after start-up (the connection retries by itself): part of the outage. */
  connectionFailed(error: Error): void {
    if (!this.closed) this.opts.health.failed(error);
  }

  /** Stops probing; the connections are closed by their owner. */
  close(): void {
    this.closed = true;
    clearInterval(this.probeTimer);
    this.probeTimer = undefined;
  }

  private probe(): void {
    if (this.closed || this.breaker.state !== CircuitState.Open) return;
    // Refused (BrokenCircuitError) until probeAfterMs has passed; a failed PING re-opens the breaker.
    this.breaker.execute(() => this.command.ping()).catch(() => undefined);
  }

  private recoverIfReady(): void {
    if (this.closed || this.breaker.state !== CircuitState.Closed) return;
    if (this.command.status === 'ready' && this.subscriber.status === 'ready') this.opts.health.succeeded();
  }
}

/**
 * Whether an error is Redis being out of reach (for a caller that reports errors: one already
 * counted by the outage's report is not reported again): {@link RedisUnavailableError}, or
 * ioredis' own connection-level failures.
 */
export function isRedisOutageError(err: unknown): boolean {
  if (err instanceof RedisUnavailableError) return true;
  if (!(err instanceof Error) || err instanceof ReplyError) return false;
  return (
    err.name === 'MaxRetriesPerRequestError' ||
    /^(Stream isn't writeable|Connection is closed|Command timed out)/.test(err.message)
  );
}
