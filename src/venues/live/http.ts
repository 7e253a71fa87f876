import {
  BrokenCircuitError,
  ConsecutiveBreaker,
  circuitBreaker,
  handleWhen,
  type CircuitBreakerPolicy,
} from 'cockatiel';
import { Agent, request, type Dispatcher } from 'undici';
import type { ZodType } from 'zod';
import type { Logger } from '../../http/logger';
import type { RateLimiter } from '../../infra';
import type { Venue } from '../venue.models';
import { codeOf, maybeSent, noticeWrite } from '../../upstreams/maybe-sent';
import { VenueMarketNotFoundError, VenueOutcomeUnknownError, VenueUnavailableError } from '../venue-client';

/**
 * The one HTTP layer under the live venue clients. Each instance is one venue API
 * (one base URL): an undici keep-alive pool, a per-request timeout, a shared
 * rate limit (the infra limiter: Redis when Redis is set, so every process
 * together stays under the venue's published limit), retries with exponential
 * backoff and full jitter for GETs on 5xx and network errors, 429 honouring
 * Retry-After, a circuit breaker (cockatiel) that fails fast once the API keeps
 * failing, and zod validation of every payload. Every failure leaves as
 * {@link VenueUnavailableError}, except a 404 ({@link VenueNotFoundError}) and, for a call that
 * acts at the venue (any method but GET), a failure after which the venue may have acted on it
 * ({@link VenueOutcomeUnknownError}: see {@link maybeSent}).
 */

export interface VenueHttpOptions {
  venue: Venue;
  /** A short name for logs and limiter keys, e.g. `gamma`. */
  api: string;
  baseUrl: string;
  timeoutMs: number;
  /** Extra attempts for GETs after a 5xx, a network error or a timeout; and for any method after a 429. */
  retries: number;
  /** Requests allowed per window, across every process sharing the limiter. */
  rateLimit: { limit: number; windowMs: number };
  breaker: { failures: number; resetMs: number };
  rateLimiter: RateLimiter;
  logger: Logger;
  /** Backoff base (ms) before the first retry; doubles each attempt, capped at `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Longest Retry-After honoured (default: the request timeout); a longer one fails the request at once. */
  maxRetryAfterMs?: number;
  /** Random source for jitter (tests pin it). */
  random?: () => number;
}

export interface VenueRequest {
  method?: 'GET' | 'POST' | 'DELETE';
  /** Path under the base URL, starting with `/`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined | readonly string[]>;
  body?: unknown;
  /** Extra headers, computed per attempt (signatures carry a timestamp). */
  headers?: (wire: { method: string; path: string }) => Record<string, string>;
}

/** The shared limiter's key of one venue API's budget (`api` as created, e.g. `trade-api-orders`). */
export function venueLimiterKey(venue: Venue, api: string): string {
  return `venue:${venue}:${api}`;
}

/** The venue answered 404: the thing asked for does not exist there. */
export class VenueNotFoundError extends Error {
  constructor(
    readonly venue: Venue,
    readonly path: string,
  ) {
    super(`${venue} has no ${path}`);
    this.name = 'VenueNotFoundError';
  }
}

/** Runs a venue call about one market; the venue's 404 becomes {@link VenueMarketNotFoundError}. */
export async function aboutMarket<T>(venue: Venue, venueMarketId: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof VenueNotFoundError) throw new VenueMarketNotFoundError(venue, venueMarketId);
    throw err;
  }
}

/**
 * A failure worth retrying and counting against the breaker (5xx, 429, network, timeout); `sent`:
 * the venue may have received the request and acted on it.
 */
class TransientVenueError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
    readonly sent = false,
  ) {
    super(message);
    this.name = 'TransientVenueError';
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Retry-After as seconds or an HTTP date, in ms from now (null when absent or unreadable). */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | null {
  const v = Array.isArray(header) ? header[0] : header;
  if (v === undefined || v.trim() === '') return null;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.ceil(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function queryString(q: VenueRequest['query']): string {
  if (!q) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined) continue;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') params.append(k, String(v));
    else for (const item of v) params.append(k, item);
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** Whether a request acts at the venue (anything but a read): its failures may have had an effect. */
function acts(req: VenueRequest): boolean {
  return (req.method ?? 'GET') !== 'GET';
}

export class VenueHttp {
  private readonly agent: Agent;
  private readonly breaker: CircuitBreakerPolicy;
  private readonly base: URL;
  private readonly random: () => number;

  constructor(private readonly o: VenueHttpOptions) {
    this.base = new URL(o.baseUrl);
    this.agent = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000, connections: 16 });
    this.breaker = circuitBreaker(
      handleWhen((err) => err instanceof TransientVenueError),
      { halfOpenAfter: o.breaker.resetMs, breaker: new ConsecutiveBreaker(o.breaker.failures) },
    );
    this.random = o.random ?? Math.random;
    const where = { venue: o.venue, api: o.api };
    this.breaker.onBreak(() =>
      o.logger.warn(where, `${o.venue} ${o.api} keeps failing: failing fast for ${o.breaker.resetMs} ms`),
    );
    this.breaker.onReset(() => o.logger.info(where, `${o.venue} ${o.api} answers again`));
  }

  /** Sends a request and validates the JSON answer with `schema`. */
  async json<T>(req: VenueRequest, schema: ZodType<T>): Promise<T> {
    const text = await this.send(req);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return this.malformed(req, 'the body is not JSON');
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return this.malformed(req, `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
    return parsed.data;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** A 2xx whose payload is unreadable: for a call that acts, the venue took it ({@link VenueOutcomeUnknownError}). */
  private malformed(req: VenueRequest, why: string): never {
    this.o.logger.warn(
      { venue: this.o.venue, api: this.o.api, path: req.path },
      `${this.o.venue} ${this.o.api} ${req.path} returned a malformed payload: ${why}`,
    );
    const message = `${this.o.venue} returned a malformed payload for ${req.path}`;
    if (acts(req)) throw new VenueOutcomeUnknownError(this.o.venue, message);
    throw new VenueUnavailableError(this.o.venue, message);
  }

  /** Runs the request through the breaker; returns the body of a 2xx answer. */
  private async send(req: VenueRequest): Promise<string> {
    try {
      return await this.breaker.execute(() => this.attempts(req));
    } catch (err) {
      if (err instanceof BrokenCircuitError) {
        throw new VenueUnavailableError(this.o.venue, `${this.o.venue} ${this.o.api} is failing; circuit open`);
      }
      if (err instanceof TransientVenueError) {
        const message = `${this.o.venue} ${this.o.api}: ${err.message}`;
        if (err.sent && acts(req)) throw new VenueOutcomeUnknownError(this.o.venue, message);
        throw new VenueUnavailableError(this.o.venue, message);
      }
      throw err;
    }
  }

  private async attempts(req: VenueRequest): Promise<string> {
    const method = req.method ?? 'GET';
    // A wait longer than one request may take is not worth it: the caller is better told now.
    const maxRetryAfter = this.o.maxRetryAfterMs ?? this.o.timeoutMs;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(req);
      } catch (err) {
        if (!(err instanceof TransientVenueError) || attempt >= this.o.retries) throw err;
        if (err.retryAfterMs !== null) {
          // A 429: the venue did not act on the request, so any method may be sent again after the wait.
          if (err.retryAfterMs > maxRetryAfter) throw err;
          await sleep(err.retryAfterMs);
          continue;
        }
        if (method !== 'GET') throw err;
        const cap = Math.min(this.o.maxBackoffMs ?? 5_000, (this.o.backoffMs ?? 200) * 2 ** attempt);
        await sleep(Math.floor(this.random() * cap));
      }
    }
  }

  /** Waits for a slot in the shared rate limit, for at most one request timeout. */
  private async acquire(): Promise<void> {
    const key = venueLimiterKey(this.o.venue, this.o.api);
    const deadline = Date.now() + this.o.timeoutMs;
    for (;;) {
      const r = await this.o.rateLimiter.hit(key, this.o.rateLimit.limit, this.o.rateLimit.windowMs);
      if (r.allowed) return;
      if (Date.now() + r.retryAfterMs > deadline) {
        throw new VenueUnavailableError(this.o.venue, `${this.o.venue} ${this.o.api}: local rate limit reached`);
      }
      await sleep(r.retryAfterMs);
    }
  }

  private async once(req: VenueRequest): Promise<string> {
    await this.acquire();
    const method = req.method ?? 'GET';
    const wirePath = `${this.base.pathname.replace(/\/+$/, '')}${req.path}`;
    const url = `${this.base.origin}${wirePath}${queryString(req.query)}`;
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...req.headers?.({ method, path: wirePath }),
    };
    let body: string | undefined;
    if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
    const signal = AbortSignal.timeout(this.o.timeoutMs);
    let written = false;
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method,
        headers,
        body,
        dispatcher: this.agent.compose(noticeWrite(() => (written = true))),
        signal,
      });
    } catch (err) {
      const why = signal.aborted
        ? `no answer within ${this.o.timeoutMs} ms`
        : `network error: ${(err as Error).message}${codeOf(err) ? ` (${codeOf(err)})` : ''}`;
      const sent = maybeSent(err, written);
      throw new TransientVenueError(sent ? why : `${why}, before the request was sent`, null, sent);
    }
    const status = res.statusCode;
    const retryAfter = res.headers['retry-after'];
    let text: string;
    try {
      text = await res.body.text();
    } catch (err) {
      // The venue answered (a 2xx: it took the request), but its body was lost.
      const why = signal.aborted ? `no whole answer within ${this.o.timeoutMs} ms` : (err as Error).message;
      if (status >= 200 && status < 300)
        throw new TransientVenueError(`answered ${status}, body lost: ${why}`, null, true);
      text = '';
    }
    if (status >= 200 && status < 300) return text;
    if (status === 429) {
      throw new TransientVenueError('rate limited (429)', retryAfterMs(retryAfter) ?? this.o.backoffMs ?? 200);
    }
    // A 5xx may come after the venue acted (a gateway timing out on it, a crash after the write).
    if (status >= 500) throw new TransientVenueError(`answered ${status}`, null, true);
    if (status === 404) throw new VenueNotFoundError(this.o.venue, req.path);
    this.o.logger.warn(
      { venue: this.o.venue, api: this.o.api, path: req.path, status },
      `${this.o.venue} ${this.o.api} ${method} ${req.path} refused with ${status}: ${text.slice(0, 200)}`,
    );
    throw new VenueUnavailableError(this.o.venue, `${this.o.venue} ${this.o.api} refused the request (${status})`);
  }
}
