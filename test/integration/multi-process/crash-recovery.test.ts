import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { loadConfig } from '../../../src/config';
import { signToken } from '../../../src/auth/token-signer';
import { openDatabase, type Database } from '../../../src/db/database';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { names, postStream, type StreamResult } from '../../support/execution-stream';
import type { FakeVenues } from '../../support/fake-venues';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream';
import { micros } from '../../support/money';
import { freePort, startServerProcess, type ServerProcess } from '../../support/server-process';
import { eventually, waitFor } from '../../support/wait';
import { startLiveVenueB } from '../execution/trading-helpers';

/**
 * The real thing: a server process (started as a child) is killed with SIGKILL while live venue_b
 * orders wait for the venue's answer and a withdrawal waits for the payment processor, then started
 * again on the same database (PostgreSQL with DATABASE_URL, a schema of its own, and Redis with
 * REDIS_URL; else embedded, a DATA_DIR the new process reopens). Every order reaches an end state,
 * every cut request's Idempotency-Key answers (its order's outcome, never a second order), the
 * withdrawal goes to the processor again (one payout), and the balances reconcile.
 */
const databaseUrl = process.env.DATABASE_URL;
const mode = databaseUrl ? 'PostgreSQL' : 'embedded';
const TICKER = 'KXCRASH-27JUN01-T1';
const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const USER = 'crash-user';

describe(`a server killed mid-order and mid-withdrawal (${mode})`, () => {
  let fake: FakeVenues;
  let processor: FakeUpstream;
  let env: Record<string, string>;
  let server: ServerProcess | undefined;
  const schema = `crash_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const dataDir = databaseUrl ? '' : mkdtempSync(path.join(tmpdir(), 'crash-'));
  /** Payout calls by reference; the first one's answer waits for `payoutHeld`. */
  const payouts: string[] = [];
  let payoutHeld: Promise<void> | null = null;

  const dbOptions = () => {
    if (!databaseUrl) return { dataDir };
    return { databaseUrl, schema };
  };
  /** The database while no server runs (embedded admits one process). */
  async function withDatabase<T>(work: (db: Database) => Promise<T>): Promise<T> {
    const db = await openDatabase(dbOptions());
    try {
      return await work(db);
    } finally {
      await db.close();
    }
  }

  beforeAll(async () => {
    const venue = await startLiveVenueB([TICKER]);
    fake = venue.fake;
    processor = await startFakeUpstream(async (req) => {
      if (req.path !== '/v1/payouts') return { status: 404 };
      const ref = (req.body as { reference: string }).reference;
      payouts.push(ref);
      const hold = payoutHeld;
      payoutHeld = null;
      if (hold) await hold;
      // The processor's idempotency: the same reference is the same payout.
      return { body: { id: `po_${ref}`, status: 'pending' } };
    });
    env = {
      ...venue.env,
      VENUE_HTTP_TIMEOUT_MS: '30000',
      PAYMENT_PROCESSOR_URL: processor.url,
      PAYMENT_PROCESSOR_API_KEY: 'k',
      WITHDRAWAL_DISPATCH_MS: '200',
      EXECUTION_RECONCILE_MS: '200',
      EXECUTION_STALE_ORDER_MS: '1000',
      PROCESS_HEARTBEAT_MS: '200',
      PROCESS_LEASE_MS: '600',
      LEASE_TTL_MS: '1000',
      SIM_TRADE_RATE: '0',
      SIM_BACKFILL_TRADES: '0',
      ...(databaseUrl
        ? {
            DATABASE_URL: withSchema(databaseUrl, schema),
            ...(process.env.REDIS_URL && { REDIS_URL: process.env.REDIS_URL, REDIS_KEY_PREFIX: `${schema}:` }),
          }
        : { DATA_DIR: dataDir }),
    };
    await withDatabase((db) =>
      new LedgerService(db.prisma).postAll([
        { userId: USER, kind: 'deposit', available: micros(100), held: 0n, reference: 'test', idempotencyKey: 'd1' },
      ]),
    );
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await fake?.close();
    await processor?.close();
    if (databaseUrl) {
      const pg = new Client({ connectionString: databaseUrl });
      await pg.connect();
      await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pg.end();
    } else rmSync(dataDir, { recursive: true, force: true });
  });

  const config = loadConfig({});
  const headers = async (key?: string, wallet = true) => ({
    authorization: `Bearer ${await signToken(wallet ? config.auth.wallet : config.auth.user, USER)}`,
    ...(key && { 'idempotency-key': key }),
  });
  const orderPosts = () => fake.requestsTo('kalshi', '/portfolio/orders').filter((r) => r.method === 'POST');
  const buy = (size: number) => ({ mode: 'live', marketId: `venue_b:${TICKER}`, side: 'buy', outcome: 'yes', size });

  async function start(): Promise<ServerProcess> {
    const s = await startServerProcess(env, await freePort());
    await eventually(
      async () => ((await fetch(`${s.url}/api/markets/venue_b/${TICKER}/detail`)).status === 200 ? true : undefined),
      'the venue_b market is listed',
      60_000,
    );
    return s;
  }

  /** Sends a request that the kill cuts: it must not answer before. */
  function cut(url: string, body: unknown, h: Record<string, string>): Promise<unknown> {
    return fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...h },
      body: JSON.stringify(body),
    })
      .then((r) => r.text())
      .catch((err: unknown) => err);
  }

  /** Sends `key` again until it is answered with something other than 409 (the first request's process gone). */
  async function resend(url: string, body: unknown, key: string): Promise<StreamResult> {
    return eventually(
      async () => {
        const r = await postStream(url, body, await headers(key));
        return r.status === 409 ? undefined : r;
      },
      `${key} answered`,
      20_000,
    );
  }

  it('every order ends, every cut key answers its order, the withdrawal is paid once, balances reconcile', async () => {
    server = await start();
    // A position to sell from, bought before anything goes wrong.
    const first = await postStream(`${server.url}/execute`, buy(4), await headers('warm-up'));
    expect(names(first).at(-1)).toBe('completed');
    const positionId = first.events.at(-1)!.data.position!.id;

    // The venue holds its answers to the next two orders (it takes them when released) and never acts on a third.
    let releaseVenue!: () => void;
    const venueHeld = new Promise<void>((resolve) => (releaseVenue = resolve));
    const match = { api: 'kalshi' as const, method: 'POST', path: '/portfolio/orders' };
    fake.fault(match, { kind: 'hold', until: venueHeld }, 2);
    fake.fault(match, { kind: 'hang' });
    const placed = orderPosts().length;
    const sell = cut(`${server.url}/api/positions/${positionId}/sell`, { size: 2 }, await headers('sell-2'));
    await waitFor(() => orderPosts().length === placed + 1, 'the sell reaches the venue', 20_000);
    const held = cut(`${server.url}/execute`, buy(3), await headers('buy-3'));
    await waitFor(() => orderPosts().length === placed + 2, 'the buy of 3 reaches the venue', 20_000);
    const lost = cut(`${server.url}/execute`, buy(2), await headers('buy-2'));
    await waitFor(() => orderPosts().length === placed + 3, 'the buy of 2 reaches the venue', 20_000);
    let releasePayout!: () => void;
    payoutHeld = new Promise<void>((resolve) => (releasePayout = resolve));
    const w = await fetch(`${server.url}/api/funding/withdraw`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await headers('withdraw-10')) },
      body: JSON.stringify({ amount: 10, chain: 'polygon', destination: EVM }),
    });
    expect(w.status).toBe(201);
    const withdrawalId = ((await w.json()) as { id: string }).id;
    await waitFor(() => payouts.length === 1, 'the dispatcher calls the processor', 20_000);

    server.child.kill('SIGKILL');
    await new Promise((resolve) => server!.child.once('exit', resolve));
    await Promise.all([sell, held, lost]);
    // What the venue and the processor were asked goes through there after all.
    releaseVenue();
    releasePayout();
    await waitFor(() => Object.keys(fake.data.venueB.orders).length === 3, 'the venue takes the held orders');

    server = await start();
    // The cut keys answer from their orders: no 409 for long, and never a second order at the venue.
    const again = await resend(`${server.url}/execute`, buy(3), 'buy-3');
    expect(again.status).toBe(200);
    expect(['outcome_unknown', 'completed']).toContain(names(again).at(-1));
    const user = await headers(undefined, false);
    const orders = await eventually(
      async () => {
        const r = await fetch(`${server!.url}/api/orders?pageSize=50`, { headers: user });
        const page = (await r.json()) as { data: { id: string; state: string; externalOrderId: string | null }[] };
        return page.data.every((o) => o.state !== 'pending' && o.state !== 'submitted') ? page.data : undefined;
      },
      'every order reaches an end state',
      30_000,
    );
    expect(orders.map((o) => o.state).sort()).toEqual(['failed', 'filled', 'filled', 'filled']);
    const settled = await resend(`${server.url}/execute`, buy(3), 'buy-3');
    expect(names(settled).at(-1)).toBe('completed');
    expect(settled.events.at(-1)!.data.order).toMatchObject({ state: 'filled', filledSize: 3 });
    const never = await resend(`${server.url}/execute`, buy(2), 'buy-2');
    expect(names(never).at(-1)).toBe('failed');
    expect(never.events.at(-1)!.data.order!.failureReason).toMatch(/never reached venue_b/);
    const sold = await resend(`${server.url}/api/positions/${positionId}/sell`, { size: 2 }, 'sell-2');
    expect(names(sold).at(-1)).toBe('completed');
    // One venue order per order that reached it, each recorded with its venue id.
    expect(orderPosts()).toHaveLength(placed + 3);
    const venueIds = Object.values(fake.data.venueB.orders).map((o) => o.order_id as string);
    expect(
      orders
        .filter((o) => o.state === 'filled')
        .map((o) => o.externalOrderId)
        .sort(),
    ).toEqual(venueIds.sort());

    const withdrawal = await eventually(
      async () => {
        const r = await fetch(`${server!.url}/api/funding/withdrawals`, { headers: user });
        const found = ((await r.json()) as { data: { id: string; status: string; payoutId: string | null }[] }).data;
        return found.find((x) => x.id === withdrawalId && x.status !== 'queued');
      },
      'the withdrawal is dispatched again',
      30_000,
    );
    expect(withdrawal).toMatchObject({ status: 'processing', payoutId: `po_${withdrawalId}` });
    expect(payouts).toEqual([withdrawalId, withdrawalId]);

    expect(await server.stop()).toBe(0);
    server = undefined;
    await withDatabase(async (db) => {
      const ledger = new LedgerService(db.prisma);
      expect(await ledger.audit()).toEqual([]);
      // $100 − buy 4 at 55¢ (2.20 + 0.07 fee) − buy 3 at 55¢ (1.65 + 0.06) + sell 2 at 53¢ (1.06 − 0.04),
      // the withdrawal's $10 held until the processor pays it; the order that never reached the venue cost nothing.
      expect(await ledger.balance(USER)).toMatchObject({
        available: micros(100 - 2.27 - 1.71 + 1.02 - 10),
        held: micros(10),
      });
      const position = await db.prisma.position.findUniqueOrThrow({ where: { id: positionId } });
      expect(position.sizeMicros).toBe(micros(4 + 3 - 2));
      expect(await db.prisma.order.count({ where: { state: { in: ['pending', 'submitted'] } } })).toBe(0);
    });
  }, 240_000);
});

function withSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('schema', schema);
  return u.toString();
}
