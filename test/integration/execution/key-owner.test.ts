import { IdempotencyService } from '../../../src/modules/idempotency/idempotency.service';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { startTestApp, type TestApp } from '../../support/app';
import { names, postStream, type StreamResult } from '../../support/execution-stream';
import type { FakeVenues } from '../../support/fake-venues';
import { fund } from '../../support/funding';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { eventually, waitFor } from '../../support/wait';
import { orderRows, startLiveVenueB } from './trading-helpers';

/**
 * An `Idempotency-Key` in flight belongs to the process running its first request: while that
 * process lives a retry is 409; once it is gone (its heartbeat lapsed, or its row deleted) the next
 * retry takes the key over at once. A taken-over `/execute` key whose order exists answers from that
 * order and never places a second one. Two app instances over one database stand for two processes.
 */
const pinned = pinnedWorld();
const marketB = activeMatchedEvent(pinned.world).markets[0].venueMarketIds.venue_b!;
let fake: FakeVenues;
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  const venue = await startLiveVenueB([marketB]);
  fake = venue.fake;
  const env = { ...venue.env, EXECUTION_RECONCILE_MS: '0' };
  a = await startTestApp(env, {}, pinned);
  b = await startTestApp(env, {}, { world: pinned.world, now: pinned.now, shareWith: a });
});
afterAll(async () => {
  await b.close();
  await a.close();
  await fake.close();
});

const orderPosts = () => fake.requestsTo('kalshi', '/portfolio/orders').filter((r) => r.method === 'POST').length;

describe('an /execute key whose process is gone', () => {
  it('is 409 while its process lives, then answered from its order by another process, placed once', async () => {
    await fund(a, 'kate', 50);
    let release!: () => void;
    const until = new Promise<void>((resolve) => (release = resolve));
    fake.fault({ api: 'kalshi', method: 'POST', path: '/portfolio/orders' }, { kind: 'hold', until });
    const body = { mode: 'live', marketId: `venue_b:${marketB}`, side: 'buy', outcome: 'yes', size: 3 };
    const send = async (app: TestApp): Promise<StreamResult> =>
      postStream(`${app.url}/execute`, body, { ...(await app.walletBearer('kate')), 'idempotency-key': 'buy-once' });
    const before = orderPosts();
    // The first request runs in b and waits for the venue's answer.
    const first = send(b);
    await waitFor(() => orderPosts() === before + 1, 'the order reaches the venue');

    const whileAlive = await send(a);
    expect(whileAlive.status).toBe(409);
    expect(whileAlive.body).toMatchObject({ error: 'conflict', message: expect.stringMatching(/still in progress/) });

    // b is gone as far as the database can tell (its heartbeat row deleted, as a lapsed lease reads).
    await b.services.owner.stop();
    const taken = await send(a);
    expect(taken.status).toBe(200);
    expect(names(taken)).toEqual(['accepted', 'outcome_unknown']);
    const orderId = taken.events[0].data.orderId;
    expect(taken.events.every((e) => e.data.replayed)).toBe(true);
    expect(taken.events[1].data.order).toMatchObject({ id: orderId, state: 'submitted' });
    expect(orderPosts()).toBe(before + 1);

    // The venue answers b's request: b records the fills, and the key's replay carries them on.
    release();
    const firstAnswer = await first;
    expect(names(firstAnswer).at(-1)).toBe('completed');
    const { order } = await orderRows(a, orderId);
    expect(order).toMatchObject({ state: 'filled', idempotencyKey: 'buy-once' });
    const replay = await send(a);
    expect(names(replay)).toEqual(['accepted', 'outcome_unknown', 'fill', 'completed']);
    expect(replay.events.map((e) => e.id)).toEqual([1, 2, 3, 4].map((seq) => `${orderId}:${seq}`));
    expect(orderPosts()).toBe(before + 1);
    expect(await a.services.db.prisma.order.count({ where: { userId: 'kate' } })).toBe(1);
    expect((await a.services.get(LedgerService).balance('kate')).held).toBe(0n);
    expect(await a.services.get(LedgerService).audit()).toEqual([]);
  });
});

describe('a position sell whose process died after the venue filled it', () => {
  it('the retry of its key replays the sell (the position it named is gone): never a 400', async () => {
    await fund(a, 'sam', 50);
    const bought = await postStream(
      `${a.url}/execute`,
      { mode: 'live', marketId: `venue_b:${marketB}`, side: 'buy', outcome: 'yes', size: 2 },
      await a.walletBearer('sam'),
    );
    expect(names(bought).at(-1)).toBe('completed');
    const positionId = bought.events.at(-1)!.data.position!.id;
    const sell = async () =>
      postStream(
        `${a.url}/api/positions/${positionId}/sell`,
        {},
        {
          ...(await a.walletBearer('sam')),
          'idempotency-key': 'sell-all',
        },
      );
    const sold = await sell();
    expect(names(sold).at(-1)).toBe('completed');
    // The process stopped between recording the venue's answer and storing the key's: the key is still
    // claimed, in the name of a process that is gone.
    const prisma = a.services.db.prisma;
    await prisma.$executeRaw`
      UPDATE "IdempotentRequest" SET "response" = NULL, "ownerId" = 'gone' WHERE "key" = 'sell-all'`;
    const retry = await sell();
    expect(retry.status).toBe(200);
    expect(names(retry)).toEqual(['accepted', 'fill', 'completed']);
    expect(retry.events.every((e) => e.data.replayed)).toBe(true);
    expect(retry.events[0].data.orderId).toBe(sold.events[0].data.orderId);
    expect(await prisma.order.count({ where: { userId: 'sam', side: 'sell' } })).toBe(1);
  });
});

describe('a key claimed by a process whose heartbeat stopped', () => {
  it('is taken over by one retry once the lease lapses (no row deleted, as after SIGKILL)', async () => {
    const prisma = a.services.db.prisma;
    // A process that beat once with a short lease and then died.
    await prisma.$executeRaw`
      INSERT INTO "ProcessOwner" ("id", "aliveUntil") VALUES ('killed', now() + interval '500 milliseconds')`;
    const killed = new IdempotencyService(prisma, Date.now, { id: 'killed' });
    const call = { userId: 'ivan', operation: 'test.op', key: 'k-1', input: { n: 1 } };
    let ran = 0;
    // Its first request claimed the key and never answered.
    void killed.run(call, () => new Promise<never>(() => undefined));
    const here = a.services.get(IdempotencyService);
    const attempt = () =>
      here.run(call, async () => {
        ran += 1;
        return { answered: 'here' };
      });
    await eventually(
      async () => (await prisma.idempotentRequest.count({ where: { key: 'k-1' } })) || undefined,
      'claim',
    );
    await expect(attempt()).rejects.toMatchObject({ code: 'conflict' });
    // Two retries at once after the lapse: one takes the key and runs, the other waits its answer (409 meanwhile).
    const answer = await eventually(
      async () => {
        const results = await Promise.allSettled([attempt(), attempt()]);
        const ok = results.find((r) => r.status === 'fulfilled');
        return ok ? (ok as PromiseFulfilledResult<{ answered: string }>).value : undefined;
      },
      'the lapsed claim is taken over',
      10_000,
    );
    expect(answer).toEqual({ answered: 'here' });
    expect(ran).toBe(1);
    expect(await attempt()).toEqual({ answered: 'here' });
    expect(ran).toBe(1);
  });
});
