import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  gammaMarkets,
  handleClob,
  handleData,
  handleGamma,
  hex,
  parseArray,
  PREFIX,
  uuid,
  type Reply,
} from './fake-venue-a.replies';
import { handleKalshi, kalshiMarkets } from './fake-venue-b.replies';
import {
  loadVenueFixtures,
  type AddTradeInput,
  type FakeApi,
  type FakeFault,
  type FakeVenueData,
  type FakeVenueRequest,
  type FakeVenues,
  type FaultMatch,
} from './fake-venues.types';

/**
 * A local stand-in for both real venues, speaking their documented shapes:
 * venue_a as Polymarket (Gamma `/events`, CLOB `/book` and `/prices-history`,
 * Data API `/trades` and `/holders`) and venue_b as Kalshi's trade API v2
 * (`/events`, `/markets/{ticker}/orderbook`, candlesticks, `/markets/trades`,
 * `POST /portfolio/orders`, and the member's `GET /portfolio/orders` and
 * `GET /portfolio/fills`). One HTTP server on 127.0.0.1, port 0; each API
 * lives under its own path prefix so the clients' base URLs differ.
 *
 * Knobs: faults (status with Retry-After, hang, malformed JSON, a wrong
 * shape) queued per route, trades added at runtime, a public key that makes
 * order requests require a valid RSA-PSS signature, and every request recorded.
 */

export * from './fake-venues.types';
export { marketByToken, syntheticClobBook } from './fake-venue-a.replies';
export { syntheticKalshiBook } from './fake-venue-b.replies';

/* ------------------------------------------------------------------ server */

interface QueuedFault {
  match: FaultMatch;
  fault: FakeFault;
  left: number;
}

function matches(m: FaultMatch, r: FakeVenueRequest): boolean {
  if (m.api && m.api !== r.api) return false;
  if (m.method && m.method.toUpperCase() !== r.method) return false;
  if (typeof m.path === 'string' && m.path !== r.path) return false;
  if (m.path instanceof RegExp && !m.path.test(r.path)) return false;
  return true;
}

/** Starts the fake venues on 127.0.0.1, port 0, over a fresh copy of the fixtures. */
export async function startFakeVenues(options: { data?: FakeVenueData } = {}): Promise<FakeVenues> {
  const data = options.data ?? loadVenueFixtures();
  const requests: FakeVenueRequest[] = [];
  let faults: QueuedFault[] = [];
  let publicKeyPem: string | null = null;
  let tradeSeq = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const api = (Object.keys(PREFIX) as FakeApi[]).find(
        (a) => url.pathname === PREFIX[a] || url.pathname.startsWith(`${PREFIX[a]}/`),
      );
      if (!api) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":"unknown api"}');
        return;
      }
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = undefined;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const r: FakeVenueRequest = {
        api,
        method: (req.method ?? 'GET').toUpperCase(),
        path: url.pathname.slice(PREFIX[api].length) || '/',
        wirePath: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        at: Date.now(),
      };
      requests.push(r);

      const queued = faults.find((f) => f.left > 0 && matches(f.match, r));
      if (queued) {
        queued.left -= 1;
        faults = faults.filter((f) => f.left > 0);
        const f = queued.fault;
        if (f.kind === 'delay') {
          setTimeout(answer, f.ms);
          return;
        }
        if (f.kind === 'hold') {
          void f.until.finally(answer);
          return;
        }
        if (f.kind === 'hang') return;
        if (f.kind === 'lost') {
          reply();
          if (f.then === 'reset') req.socket.destroy();
          else if (f.then !== 'hang') {
            res.writeHead(f.then, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: `fault ${f.then}` }));
          }
          return;
        }
        if (f.kind === 'reset') {
          req.socket.destroy();
          return;
        }
        if (f.kind === 'malformed') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"events": [ {"id": "1", "title": "trunc');
          return;
        }
        if (f.kind === 'json') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(f.body));
          return;
        }
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (f.retryAfter !== undefined) headers['retry-after'] = String(f.retryAfter);
        res.writeHead(f.status, headers);
        res.end(JSON.stringify(f.body ?? { error: `fault ${f.status}` }));
        return;
      }
      answer();

      function answer(): void {
        const out = reply();
        res.writeHead(out.status, { 'content-type': 'application/json', ...out.headers });
        res.end(JSON.stringify(out.body));
      }

      /** The venue's answer to the request, acting on it (an order is taken). */
      function reply(): Reply {
        try {
          return api === 'gamma'
            ? handleGamma(data, r.path, r.query)
            : api === 'clob'
              ? handleClob(data, r.path, r.query)
              : api === 'data'
                ? handleData(data, r.path, r.query)
                : handleKalshi(data, r, publicKeyPem);
        } catch (err) {
          return { status: 500, body: { error: String(err) } };
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const gammaUrl = `${url}${PREFIX.gamma}`;
  const clobUrl = `${url}${PREFIX.clob}`;
  const dataUrl = `${url}${PREFIX.data}`;
  const kalshiUrl = `${url}${PREFIX.kalshi}`;

  function addTrade(venue: 'venue_a' | 'venue_b', t: AddTradeInput): string {
    const at = t.at ?? new Date();
    tradeSeq += 1;
    if (venue === 'venue_a') {
      const m = gammaMarkets(data).find((x) => x.conditionId === t.venueMarketId);
      if (!m) throw new Error(`fake venue_a has no market ${t.venueMarketId}`);
      const index = t.outcome === 'yes' ? 0 : 1;
      const transactionHash = `0x${hex(`trade:a:${tradeSeq}:${at.getTime()}`, 64)}`;
      data.venueA.trades.unshift({
        proxyWallet: t.wallet ?? `0x${hex(`wallet:${tradeSeq}`, 40)}`,
        side: t.side === 'sell' ? 'SELL' : 'BUY',
        asset: parseArray(m.clobTokenIds)[index],
        conditionId: m.conditionId,
        size: t.size,
        price: t.price,
        timestamp: Math.floor(at.getTime() / 1000),
        title: m.question,
        slug: typeof m.slug === 'string' ? m.slug : '',
        outcome: parseArray(m.outcomes)[index] ?? (index === 0 ? 'Yes' : 'No'),
        outcomeIndex: index,
        name: '',
        pseudonym: '',
        transactionHash,
      });
      return transactionHash;
    }
    const m = kalshiMarkets(data).find((x) => x.ticker === t.venueMarketId);
    if (!m) throw new Error(`fake venue_b has no market ${t.venueMarketId}`);
    const cents = Math.round(t.price * 100);
    const yes = t.outcome === 'yes' ? cents : 100 - cents;
    const tradeId = uuid(`trade:b:${tradeSeq}:${at.getTime()}`);
    data.venueB.trades.unshift({
      trade_id: tradeId,
      ticker: m.ticker,
      count: t.size,
      count_fp: t.size.toFixed(2),
      yes_price: yes,
      no_price: 100 - yes,
      yes_price_dollars: (yes / 100).toFixed(4),
      no_price_dollars: ((100 - yes) / 100).toFixed(4),
      taker_side: t.outcome,
      created_time: at.toISOString(),
    });
    return tradeId;
  }

  return {
    url,
    gammaUrl,
    clobUrl,
    dataUrl,
    kalshiUrl,
    env: {
      VENUE_SOURCE: 'live',
      // This fake serves HTTP only: the websockets are test/support/fake-venue-streams.ts's (its env turns them on).
      VENUE_STREAMS: 'off',
      VENUE_A_GAMMA_URL: gammaUrl,
      VENUE_A_CLOB_URL: clobUrl,
      VENUE_A_DATA_URL: dataUrl,
      VENUE_B_API_URL: kalshiUrl,
    },
    data,
    requests,
    fault(match, fault, times = 1) {
      faults.push({ match, fault, left: times });
    },
    clearFaults() {
      faults = [];
    },
    addTrade,
    requireSignature(pem) {
      publicKeyPem = pem;
    },
    requestsTo(api, pathname) {
      return requests.filter((r) => r.api === api && (pathname === undefined || r.path === pathname));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
