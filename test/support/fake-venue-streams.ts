import { createPublicKey, constants as cryptoConstants, verify } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import {
  clobBook as clobBookOf,
  clobYesBook,
  kalshiBook as kalshiBookOf,
  kalshiRows,
  kalshiYesBook,
  pinKalshiBook,
  setClobLevel,
  tokensOf as tokensIn,
} from './fake-venue-books';
import { marketByToken, type ClobBookFixture, type FakeVenues } from './fake-venues';
import { PATHS, type FakeVenueStreams, type StreamVenue } from './fake-venue-streams.types';

export type { FakeVenueStreams, StreamVenue } from './fake-venue-streams.types';

/**
 * Local stand-ins for the venues' websockets, on 127.0.0.1 port 0, over the HTTP fake's data (so
 * a book read over HTTP agrees with what the stream said, and a trade printed on a stream is on
 * the polled tape with the same id):
 *
 * - venue_a at `/venue-a/ws/market`, Polymarket's CLOB market channel: `{"assets_ids":[…],"type":
 *   "market"}` (and `operation` subscribe/unsubscribe) answered with a `book` per token, then
 *   `price_change` (new size at a level), `last_trade_price`; text `PING` answered `PONG`;
 * - venue_b at `/venue-b/trade-api/ws/v2`, Kalshi's trade API websocket: `subscribe`,
 *   `unsubscribe` and `update_subscription` commands answered `subscribed`/`ok`/`unsubscribed`;
 *   `orderbook_snapshot` then `orderbook_delta` (relative, `delta_fp`), `trade`, `ticker`; every
 *   message of a subscription numbered by `seq` (an `ok` uses one too); `orderbook_delta` needs a
 *   signed handshake (`error` code 9 otherwise) once {@link FakeVenueStreams.requireSignature} is set.
 *
 * Knobs: lose a delta (its `seq` is used, the frame never sent: a gap), send raw frames
 * (malformed), drop every connection, refuse handshakes, go silent (no PONG, no pong), send no
 * books on subscribing. Frames received and handshakes are recorded.
 */

type Json = Record<string, unknown>;
interface KalshiSub {
  channel: string;
  tickers: Set<string> | null;
  seq: number;
}
interface Conn {
  venue: StreamVenue;
  ws: WebSocket;
  assets: Set<string>;
  subs: Map<number, KalshiSub>;
  nextSid: number;
  signed: boolean;
}

const fmt = (n: number, dp: number) => n.toFixed(dp);

export async function startFakeVenueStreams(venues: FakeVenues): Promise<FakeVenueStreams> {
  const conns = new Set<Conn>();
  const received: FakeVenueStreams['received'] = [];
  const handshakes: FakeVenueStreams['handshakes'] = [];
  const refusals: Record<StreamVenue, number> = { venue_a: 0, venue_b: 0 };
  const silent: Record<StreamVenue, boolean> = { venue_a: false, venue_b: false };
  let sendBooks = true;
  let publicKeyPem: string | null = null;
  const wss = new WebSocketServer({ noServer: true, autoPong: false });
  const server = http.createServer((_req, res) => res.writeHead(404).end());

  const clobBook = (token: string) => clobBookOf(venues.data, token);
  const kalshiBook = (ticker: string) => kalshiBookOf(venues.data, ticker);
  const tokensOf = (conditionId: string) => tokensIn(venues.data, conditionId);

  /* ----------------------------------------------------------- sending */

  const open = (venue: StreamVenue) =>
    [...conns].filter((c) => c.venue === venue && c.ws.readyState === WebSocket.OPEN);
  const out = (c: Conn, msg: unknown) => c.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));

  function bookMessage(token: string, b: ClobBookFixture): Json {
    return {
      event_type: 'book',
      asset_id: token,
      market: b.market,
      bids: b.bids,
      asks: b.asks,
      timestamp: String(Date.now()),
      hash: '0x0',
      tick_size: b.tick_size,
    };
  }
  function sendAssetBooks(c: Conn, assets: string[]): void {
    if (!sendBooks) return;
    const books = [];
    for (const token of assets) if (marketByToken(venues.data, token)) books.push(bookMessage(token, clobBook(token)));
    if (books.length) out(c, books);
  }

  /** The next message of a Kalshi subscription (its seq used); `send` false: the frame is lost. */
  function onSub(c: Conn, sid: number, type: string, msg: Json, send = true): void {
    const sub = c.subs.get(sid);
    if (!sub) return;
    sub.seq += 1;
    if (send) out(c, { type, sid, seq: sub.seq, msg });
  }
  function kalshiSnapshot(c: Conn, sid: number, ticker: string): void {
    const b = kalshiBook(ticker);
    const msg: Json = { market_ticker: ticker, market_id: `id-${ticker}` };
    if (b.yes.size) msg.yes_dollars_fp = kalshiRows(b.yes);
    if (b.no.size) msg.no_dollars_fp = kalshiRows(b.no);
    onSub(c, sid, 'orderbook_snapshot', msg);
  }

  /* ----------------------------------------------------------- commands */

  function onVenueA(c: Conn, text: string): void {
    if (text === 'PING') {
      if (!silent.venue_a) out(c, 'PONG');
      return;
    }
    const m = JSON.parse(text) as Json;
    const assets = ((m.assets_ids as string[]) ?? []).map(String);
    if (m.operation === 'unsubscribe') for (const a of assets) c.assets.delete(a);
    else {
      const fresh = assets.filter((a) => !c.assets.has(a));
      for (const a of assets) c.assets.add(a);
      sendAssetBooks(c, fresh);
    }
  }

  function onVenueB(c: Conn, text: string): void {
    const m = JSON.parse(text) as Json;
    const id = m.id;
    const params = (m.params ?? {}) as Json;
    const tickers = (params.market_tickers as string[] | undefined) ?? null;
    if (m.cmd === 'subscribe') {
      for (const channel of (params.channels as string[]) ?? []) {
        if (channel === 'orderbook_delta' && publicKeyPem && !c.signed) {
          out(c, { type: 'error', id, msg: { code: 9, msg: 'Authentication required' } });
          continue;
        }
        const existing = [...c.subs].find(([, s]) => s.channel === channel);
        let sid: number;
        let added: string[];
        if (existing) {
          // A repeat subscribe adds markets to the subscription; its `ok` uses a seq.
          [sid] = existing;
          const sub = existing[1];
          added = (tickers ?? []).filter((t) => !sub.tickers?.has(t));
          for (const t of added) sub.tickers?.add(t);
          onSub(c, sid, 'ok', { market_tickers: [...(sub.tickers ?? [])] });
        } else {
          sid = c.nextSid++;
          c.subs.set(sid, { channel, tickers: tickers ? new Set(tickers) : null, seq: 0 });
          added = tickers ?? [];
          out(c, { type: 'subscribed', id, msg: { channel, sid } });
        }
        if (channel === 'orderbook_delta') for (const t of added) kalshiSnapshot(c, sid, t);
      }
    } else if (m.cmd === 'unsubscribe') {
      for (const sid of (params.sids as number[]) ?? []) {
        if (c.subs.delete(sid)) out(c, { type: 'unsubscribed', id, sid });
      }
    } else if (m.cmd === 'update_subscription') {
      const sid = ((params.sids as number[]) ?? [])[0];
      const sub = c.subs.get(sid);
      if (!sub) return out(c, { type: 'error', id, msg: { code: 7, msg: 'Unknown subscription ID' } });
      const list = tickers ?? [];
      for (const t of list) {
        if (params.action === 'delete_markets') sub.tickers?.delete(t);
        else sub.tickers?.add(t);
      }
      onSub(c, sid, 'ok', { market_tickers: [...(sub.tickers ?? [])] });
      if (sub.channel === 'orderbook_delta' && params.action === 'add_markets') {
        for (const t of list) kalshiSnapshot(c, sid, t);
      }
    } else out(c, { type: 'error', id, msg: { code: 5, msg: 'Unknown command' } });
  }

  function signedBy(headers: IncomingHttpHeaders, path: string): boolean {
    const ts = headers['kalshi-access-timestamp'];
    const sig = headers['kalshi-access-signature'];
    if (!publicKeyPem || typeof ts !== 'string' || typeof sig !== 'string' || !headers['kalshi-access-key'])
      return false;
    return verify(
      'sha256',
      Buffer.from(`${ts}GET${path}`),
      {
        key: createPublicKey(publicKeyPem),
        padding: cryptoConstants.RSA_PKCS1_PSS_PADDING,
        saltLength: cryptoConstants.RSA_PSS_SALTLEN_DIGEST,
      },
      Buffer.from(sig, 'base64'),
    );
  }

  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const venue = (Object.keys(PATHS) as StreamVenue[]).find((v) => PATHS[v] === path);
    const refused = !venue || refusals[venue] > 0;
    if (venue) handshakes.push({ venue, headers: req.headers, refused });
    if (refused) {
      if (venue) refusals[venue] -= 1;
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const c: Conn = {
        venue,
        ws,
        assets: new Set(),
        subs: new Map(),
        nextSid: 1,
        signed: signedBy(req.headers, path),
      };
      conns.add(c);
      ws.on('close', () => conns.delete(c));
      ws.on('ping', (data) => {
        if (!silent[c.venue]) ws.pong(data);
      });
      ws.on('message', (data) => {
        const text = (data as Buffer).toString('utf8');
        received.push({ venue: c.venue, text, at: Date.now() });
        try {
          if (c.venue === 'venue_a') onVenueA(c, text);
          else onVenueB(c, text);
        } catch {
          // What the venues answer a command they cannot read.
          out(
            c,
            c.venue === 'venue_a'
              ? 'INVALID OPERATION'
              : { type: 'error', msg: { code: 1, msg: 'Unable to process message' } },
          );
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    venueAUrl: `${base}${PATHS.venue_a}`,
    venueBUrl: `${base}${PATHS.venue_b}`,
    env: {
      VENUE_STREAMS: 'on',
      VENUE_A_WS_URL: `${base}${PATHS.venue_a}`,
      VENUE_B_WS_URL: `${base}${PATHS.venue_b}`,
      VENUE_WS_PING_MS: '1000',
      VENUE_WS_RECONNECT_MAX_MS: '200',
      VENUE_STREAM_RESYNC_MS: '200',
    },
    received,
    handshakes,
    openConnections: (venue) => open(venue).length,
    subscribedAssets: () => new Set(open('venue_a').flatMap((c) => [...c.assets])),
    subscribedTickers: (channel) =>
      new Set(
        open('venue_b').flatMap((c) =>
          [...c.subs.values()]
            .filter((s) => s.channel === channel)
            .flatMap((s) => (s.tickers ? [...s.tickers] : ['*'])),
        ),
      ),
    async book(venue, marketId) {
      return venue === 'venue_a' ? clobYesBook(clobBook(tokensOf(marketId)[0])) : kalshiYesBook(kalshiBook(marketId));
    },
    async setLevelA(conditionId, side, price, size) {
      const token = tokensOf(conditionId)[0];
      setClobLevel(clobBook(token), side, price, size);
      const change = {
        asset_id: token,
        price: String(price),
        size: String(size),
        side: side === 'bids' ? 'BUY' : 'SELL',
        hash: '0x1',
      };
      const msg = {
        event_type: 'price_change',
        market: conditionId,
        price_changes: [change],
        timestamp: String(Date.now()),
      };
      for (const c of open('venue_a')) if (c.assets.has(token)) out(c, msg);
    },
    async deltaB(ticker, side, price, delta, lose = false) {
      const b = kalshiBook(ticker);
      const units = Math.round(price * 10_000);
      const m = side === 'yes' ? b.yes : b.no;
      const size = Math.round(((m.get(units) ?? 0) + delta) * 100) / 100;
      if (size > 0) m.set(units, size);
      else m.delete(units);
      pinKalshiBook(venues.data, ticker, b);
      const msg = {
        market_ticker: ticker,
        market_id: `id-${ticker}`,
        price_dollars: fmt(price, 4),
        delta_fp: fmt(delta, 2),
        side,
        ts: new Date().toISOString(),
        ts_ms: Date.now(),
      };
      for (const c of open('venue_b')) {
        for (const [sid, s] of c.subs)
          if (s.channel === 'orderbook_delta' && s.tickers?.has(ticker)) onSub(c, sid, 'orderbook_delta', msg, !lose);
      }
    },
    trade(venue, t, opts = {}) {
      const id = venues.addTrade(venue, t);
      if (venue === 'venue_a') {
        const row = venues.data.venueA.trades[0];
        if (opts.tape === false) venues.data.venueA.trades.shift();
        const msg = {
          event_type: 'last_trade_price',
          asset_id: row.asset,
          market: row.conditionId,
          price: String(row.price),
          size: String(row.size),
          side: row.side,
          fee_rate_bps: '0',
          timestamp: String((t.at ?? new Date()).getTime()),
          transaction_hash: row.transactionHash,
        };
        for (const c of open('venue_a')) if (c.assets.has(row.asset)) out(c, msg);
        return id;
      }
      const row = venues.data.venueB.trades[0];
      if (opts.tape === false) venues.data.venueB.trades.shift();
      const at = Date.parse(row.created_time);
      const msg = {
        trade_id: row.trade_id,
        market_ticker: row.ticker,
        yes_price_dollars: row.yes_price_dollars,
        no_price_dollars: row.no_price_dollars,
        count_fp: row.count_fp ?? fmt(row.count, 2),
        taker_side: row.taker_side,
        ts: Math.floor(at / 1000),
        ts_ms: at,
      };
      for (const c of open('venue_b'))
        for (const [sid, s] of c.subs) if (s.channel === 'trade') onSub(c, sid, 'trade', msg);
      return id;
    },
    tickerB(ticker, msg) {
      for (const c of open('venue_b')) {
        for (const [sid, s] of c.subs)
          if (s.channel === 'ticker' && s.tickers?.has(ticker))
            out(c, { type: 'ticker', sid, msg: { market_ticker: ticker, ...msg } });
      }
    },
    send: (venue, text) => open(venue).forEach((c) => out(c, text)),
    drop: (venue) => [...conns].filter((c) => c.venue === venue).forEach((c) => c.ws.terminate()),
    refuse(venue, times) {
      refusals[venue] = times;
    },
    silence(venue, on) {
      silent[venue] = on;
    },
    booksOnSubscribe(on) {
      sendBooks = on;
    },
    requireSignature(pem) {
      publicKeyPem = pem;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of conns) c.ws.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
