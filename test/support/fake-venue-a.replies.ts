import { createHash } from 'node:crypto';
import type { ClobBookFixture, FakeApi, FakeVenueData, GammaMarketFixture } from './fake-venues.types';

/** What the fake answers as venue_a (Gamma, CLOB, Data API), and the helpers both fake venues' answers share. */

/* ------------------------------------------------------------------ helpers */

export const PREFIX: Record<FakeApi, string> = {
  gamma: '/venue-a/gamma',
  clob: '/venue-a/clob',
  data: '/venue-a/data',
  kalshi: '/venue-b/trade-api/v2',
};

export function parseArray(s: string): string[] {
  const v: unknown = JSON.parse(s);
  return Array.isArray(v) ? v.map(String) : [];
}

export function intParam(q: URLSearchParams, name: string, fallback: number): number {
  const raw = q.get(name);
  const n = raw === null ? NaN : Number(raw);
  return Number.isFinite(n) ? Math.floor(n) : fallback;
}

export function round(n: number, dp: number): number {
  const f = 10 ** dp;
  return Math.round(n * f) / f;
}

export function hex(seed: string, len: number): string {
  let out = '';
  let i = 0;
  while (out.length < len) out += createHash('sha256').update(`${seed}:${i++}`).digest('hex');
  return out.slice(0, len);
}

export function uuid(seed: string): string {
  const h = hex(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A deterministic wobble in [-1, 1] for synthesised history. */
export function wobble(key: string, t: number): number {
  const h = createHash('sha256').update(`${key}:${t}`).digest();
  return (h.readUInt16BE(0) / 0xffff) * 2 - 1;
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const notFound = (message: string): Reply => ({ status: 404, body: { error: message } });

/* ------------------------------------------------------------------ venue_a */

export function gammaMarkets(data: FakeVenueData): GammaMarketFixture[] {
  return data.venueA.events.flatMap((e) => e.markets);
}

/** The venue_a market of an outcome token, and the token's index (0: YES). */
export function marketByToken(data: FakeVenueData, token: string): { m: GammaMarketFixture; index: number } | null {
  for (const m of gammaMarkets(data)) {
    const index = parseArray(m.clobTokenIds).indexOf(token);
    if (index >= 0) return { m, index };
  }
  return null;
}

export function handleGamma(data: FakeVenueData, p: string, q: URLSearchParams): Reply {
  if (p === '/events') {
    let events = data.venueA.events;
    if (q.get('closed') === 'false') events = events.filter((e) => !e.closed);
    if (q.get('active') === 'true') events = events.filter((e) => e.active);
    const offset = Math.max(0, intParam(q, 'offset', 0));
    const limit = Math.max(0, intParam(q, 'limit', 20));
    return ok(events.slice(offset, offset + limit));
  }
  if (p === '/markets') {
    const ids = q.getAll('condition_ids').flatMap((s) => s.split(','));
    const tokens = q.getAll('clob_token_ids').flatMap((s) => s.split(','));
    return ok(
      gammaMarkets(data).filter(
        (m) => ids.includes(m.conditionId) || parseArray(m.clobTokenIds).some((t) => tokens.includes(t)),
      ),
    );
  }
  return notFound(`no route ${p}`);
}

/** The book the fake serves for a token without a fixture book: three levels around the market's quotes. */
export function syntheticClobBook(m: GammaMarketFixture, token: string, index: number): ClobBookFixture {
  const tick = m.orderPriceMinTickSize ?? 0.01;
  const dp = Math.max(0, Math.round(-Math.log10(tick)));
  // The YES token's best bid and ask; the NO token's book is its mirror.
  const yesBid = m.bestBid;
  const yesAsk = m.bestAsk;
  const bid = index === 0 ? yesBid : yesAsk === null ? null : round(1 - yesAsk, dp);
  const ask = index === 0 ? yesAsk : yesBid === null ? null : round(1 - yesBid, dp);
  const levels = (best: number | null, dir: number): { price: string; size: string }[] =>
    best === null
      ? []
      : [2, 1, 0]
          .map((k) => round(best + dir * k * tick, dp))
          .filter((x) => x > 0 && x < 1)
          .map((x, k) => ({ price: String(x), size: String(100 * (k + 1)) }));
  return {
    market: m.conditionId,
    asset_id: token,
    timestamp: String(Date.now()),
    hash: hex(`book:${token}`, 40),
    // The CLOB lists bids ascending and asks descending: the best level is last on both sides.
    bids: levels(bid, -1),
    asks: levels(ask, +1),
    min_order_size: '5',
    tick_size: String(tick),
    neg_risk: false,
    last_trade_price: '0.5',
  };
}

export function handleClob(data: FakeVenueData, p: string, q: URLSearchParams): Reply {
  if (p === '/book') {
    const token = q.get('token_id') ?? '';
    const found = marketByToken(data, token);
    if (!found) return notFound('No orderbook exists for the requested token id');
    return ok(data.venueA.books[token] ?? syntheticClobBook(found.m, token, found.index));
  }
  if (p === '/prices-history') {
    const token = q.get('market') ?? '';
    const found = marketByToken(data, token);
    if (!found) return ok({ history: [] });
    const start = intParam(q, 'startTs', 0);
    const end = intParam(q, 'endTs', Math.floor(Date.now() / 1000));
    const fidelityMin = Math.max(1, intParam(q, 'fidelity', 60));
    const step = fidelityMin * 60;
    const base = Number(parseArray(found.m.outcomePrices)[found.index] ?? '0.5');
    const history: { t: number; p: number }[] = [];
    for (let t = Math.ceil(start / step) * step; t <= end && history.length < 5000; t += step) {
      history.push({ t, p: round(Math.min(0.99, Math.max(0.01, base + 0.02 * wobble(token, t))), 4) });
    }
    return ok({ history });
  }
  return notFound(`no route ${p}`);
}

export function handleData(data: FakeVenueData, p: string, q: URLSearchParams): Reply {
  if (p === '/trades') {
    const markets = q.getAll('market').flatMap((s) => s.split(','));
    const limit = Math.max(0, intParam(q, 'limit', 100));
    const offset = Math.max(0, intParam(q, 'offset', 0));
    const rows = markets.length
      ? data.venueA.trades.filter((t) => markets.includes(t.conditionId))
      : data.venueA.trades;
    return ok(rows.slice(offset, offset + limit));
  }
  if (p === '/holders') {
    const market = q.get('market') ?? '';
    const limit = Math.max(0, intParam(q, 'limit', 20));
    const groups = data.venueA.holders[market] ?? [];
    return ok(groups.map((g) => ({ token: g.token, holders: g.holders.slice(0, limit) })));
  }
  return notFound(`no route ${p}`);
}
