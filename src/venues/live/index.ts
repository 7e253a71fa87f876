import type { VenuesConfig } from '../../config';
import type { Logger } from '../../http/logger';
import type { RateLimiter } from '../../infra';
import type { PublicTrade, Venue } from '../venue.models';
import type { VenueClient } from '../venue-client';
import type { VenueStream } from '../venue-stream';
import { VenueHttp } from './http';
import { VenueReadCache } from './read-cache';
import { VenueAClient } from './venue-a.client';
import { VenueAStream } from './venue-a.stream';
import { VenueBClient } from './venue-b.client';
import { venueBCredentials } from './venue-b-signing';
import { VenueBStream } from './venue-b.stream';

/**
 * The live venue clients: HTTP clients of the venues' public APIs behind the
 * same {@link VenueClient} contract as the simulated world.
 */
export { VenueAClient, venueATradeId } from './venue-a.client';
export { VenueBClient } from './venue-b.client';
export { VenueAStream, ASSETS_PER_CONNECTION } from './venue-a.stream';
export { VenueBStream } from './venue-b.stream';
export { VenueSocket } from './venue-socket';
export { VenueHttp, VenueNotFoundError, retryAfterMs, venueLimiterKey } from './http';
export { VenueReadCache } from './read-cache';
export { TradePoller } from './trade-poller';
export { venueBAuthHeaders, venueBSignature, venueBCredentials } from './venue-b-signing';
export type { VenueOrderQuery, VenueOrderReport } from './venue-b-order-lookup';

/** A live client: the contract plus `close()` (stops its trade polling and its connection pools). */
export type LiveVenueClient = VenueClient & {
  close(): Promise<void>;
  /** One poll of the live trade feed now, whatever the timer (tests and manual refresh). */
  pollTradesOnce(): Promise<void>;
  /** The newest public trades back to `since` (ms), newest first: a stream's catch-up. */
  fetchRecentTrades(since: number): Promise<PublicTrade[]>;
  /** While `paused()` holds, the trade feed is not polled (the venue's stream carries the trades). */
  gateTradePolling(paused: () => boolean): void;
};

/** Whether a venue client is a live one (it polls, and can be paused while a stream carries its trades). */
export function isLiveVenueClient(c: VenueClient): c is LiveVenueClient {
  return c instanceof VenueAClient || c instanceof VenueBClient;
}

/**
 * A live venue's push channel (`VENUE_A_WS_URL`, `VENUE_B_WS_URL`): venue_a's CLOB market channel,
 * or venue_b's trade API websocket, signed with the key pair when it is set (books need it).
 */
export function createVenueStream(venue: Venue, config: VenuesConfig, random?: () => number): VenueStream {
  const { pingMs, reconnectMaxMs: maxBackoffMs } = config.streams;
  if (venue === 'venue_a') return new VenueAStream({ url: config.streams.venueAUrl, pingMs, maxBackoffMs, random });
  const { apiKeyId, privateKeyPem } = config.venueB;
  return new VenueBStream({
    url: config.streams.venueBUrl,
    pingMs,
    maxBackoffMs,
    random,
    credentials: apiKeyId && privateKeyPem ? venueBCredentials(apiKeyId, privateKeyPem) : undefined,
  });
}

export interface LiveVenueDeps {
  /** The shared limiter (infra's: Redis when Redis is set) that keeps every process under the venues' limits. */
  rateLimiter: RateLimiter;
  logger: Logger;
  /** Client tuning (tests shrink pages). */
  tuning?: { pageSize?: number; tradesPageSize?: number; backoffMs?: number; maxRetryAfterMs?: number };
}

function api(
  config: VenuesConfig,
  deps: LiveVenueDeps,
  venue: Venue,
  name: string,
  baseUrl: string,
  rateLimit: { limit: number; windowMs: number },
): VenueHttp {
  return new VenueHttp({
    venue,
    api: name,
    baseUrl,
    timeoutMs: config.http.timeoutMs,
    retries: config.http.retries,
    rateLimit,
    breaker: { failures: config.http.breakerFailures, resetMs: config.http.breakerResetMs },
    rateLimiter: deps.rateLimiter,
    logger: deps.logger,
    backoffMs: deps.tuning?.backoffMs,
    maxRetryAfterMs: deps.tuning?.maxRetryAfterMs,
  });
}

/**
 * venue_a's client over its three APIs (each with its own pool, limit and breaker on the read
 * budget), and the CLOB once more on the order budget (`clob-orders`: a live order's book read).
 */
export function createVenueAClient(config: VenuesConfig, deps: LiveVenueDeps): VenueAClient {
  const limit = { limit: config.venueA.ratePer10s, windowMs: 10_000 };
  const apis = {
    gamma: api(config, deps, 'venue_a', 'gamma', config.venueA.gammaUrl, limit),
    clob: api(config, deps, 'venue_a', 'clob', config.venueA.clobUrl, limit),
    data: api(config, deps, 'venue_a', 'data', config.venueA.dataUrl, limit),
    clobOrders: api(config, deps, 'venue_a', 'clob-orders', config.venueA.clobUrl, {
      limit: config.venueA.orderRatePer10s,
      windowMs: 10_000,
    }),
  };
  return new VenueAClient(apis, {
    tradesPollMs: config.tradesPollMs,
    logger: deps.logger,
    pageSize: deps.tuning?.pageSize,
    tradesPageSize: deps.tuning?.tradesPageSize,
    reads: new VenueReadCache(config.readCacheMs),
  });
}

/**
 * venue_b's client; it signs orders when the key settings are present. Reads go through
 * `trade-api` (the read budget), orders and a live order's book read through `trade-api-orders`
 * (the order budget: its own limit, pool and breaker).
 */
export function createVenueBClient(config: VenuesConfig, deps: LiveVenueDeps): VenueBClient {
  const http = api(config, deps, 'venue_b', 'trade-api', config.venueB.apiUrl, {
    limit: config.venueB.ratePerSecond,
    windowMs: 1_000,
  });
  const orders = api(config, deps, 'venue_b', 'trade-api-orders', config.venueB.apiUrl, {
    limit: config.venueB.orderRatePerSecond,
    windowMs: 1_000,
  });
  const { apiKeyId, privateKeyPem } = config.venueB;
  return new VenueBClient(http, {
    tradesPollMs: config.tradesPollMs,
    logger: deps.logger,
    credentials: apiKeyId && privateKeyPem ? venueBCredentials(apiKeyId, privateKeyPem) : undefined,
    pageSize: deps.tuning?.pageSize,
    tradesPageSize: deps.tuning?.tradesPageSize,
    orders,
    reads: new VenueReadCache(config.readCacheMs),
  });
}

/** The live clients of the venues whose source is `live` (VENUE_SOURCE, VENUE_A_SOURCE, VENUE_B_SOURCE). */
export function createVenueClients(config: VenuesConfig, deps: LiveVenueDeps): Partial<Record<Venue, LiveVenueClient>> {
  const out: Partial<Record<Venue, LiveVenueClient>> = {};
  if (config.source.venue_a === 'live') out.venue_a = createVenueAClient(config, deps);
  if (config.source.venue_b === 'live') out.venue_b = createVenueBClient(config, deps);
  return out;
}
