import type { IngestFeedMutation } from '../../../schema/generated/operations';
import { SignedCursor } from '../../../src/http/signed-cursor';
import type { PubSub } from '../../../src/infra';
import { FEED_TOPIC, FeedService, type FeedItemMessage } from '../../../src/modules/feed';
import { http, startTestApp, type TestApp } from '../../support/app';
import { openSse, type SseReader } from '../../support/sse';
import { waitFor } from '../../support/wait';

const TOKEN = 'feed-stream-token';
let app: TestApp;
let seq = 0;
beforeAll(async () => {
  app = await startTestApp({ FEED_INGEST_TOKEN: TOKEN });
});
afterAll(async () => {
  await app.close();
});

const item = (source: string) => {
  seq += 1;
  return {
    source,
    externalId: `s-${seq}`,
    title: `Stream note number ${seq}`,
    publishedAt: new Date(Date.now() - seq * 1000).toISOString(),
  };
};
const ingestVia = async (target: TestApp, items: unknown[]) => {
  const r = await http(`${target.url}/api/feed/ingest`, {
    method: 'POST',
    json: { items },
    headers: { 'x-feed-ingest-token': TOKEN },
  });
  expect(r.status).toBe(200);
  return r.body as IngestFeedMutation['ingestFeed'];
};
const ingest = (items: unknown[]) => ingestVia(app, items);
const lastId = async () => (await app.services.db.prisma.feedItem.aggregate({ _max: { id: true } }))._max.id ?? 0n;
const idsAfter = async (after: bigint, source?: string) =>
  (
    await app.services.db.prisma.feedItem.findMany({
      where: { id: { gt: after }, ...(source && { source }) },
      orderBy: { id: 'asc' },
      select: { id: true },
    })
  ).map((r) => r.id.toString());
const takeIds = async (sse: SseReader, count: number) => {
  const got = await sse.take(count, 60_000);
  expect(got.every((m) => m.event === 'feed_item' && m.id === JSON.parse(m.data).id)).toBe(true);
  return got.map((m) => m.id!);
};

describe('resuming after Last-Event-ID', () => {
  it('replays every missed item, past 1,000, in pages and in order, then goes live', async () => {
    const from = await lastId();
    // 1,251 missed items of the stream's source among others', in batches of 500.
    for (let b = 0; b < 3; b += 1) {
      await ingest(Array.from({ length: 500 }, (_, k) => item(k % 6 === 5 ? 'noise' : 'backlog')));
    }
    const missed = await idsAfter(from, 'backlog');
    expect(missed.length).toBe(1251);
    const sse = await openSse(`${app.url}/api/feed/stream?source=backlog`, {
      headers: { 'last-event-id': from.toString() },
    });
    expect(sse.status).toBe(200);
    try {
      expect(await takeIds(sse, missed.length)).toEqual(missed);
      await ingest([item('noise'), item('backlog')]);
      const [live] = await takeIds(sse, 1);
      expect(live).toEqual((await idsAfter(from, 'backlog')).at(-1));
      expect(BigInt(live)).toBeGreaterThan(BigInt(missed.at(-1)!));
    } finally {
      sse.close();
    }
  });
});

describe('ordering', () => {
  it('concurrent ingests publish ids in increasing order, each message naming the one before', async () => {
    const got: FeedItemMessage[] = [];
    const unsubscribe = await app.services.infra.pubsub.subscribe<FeedItemMessage>(FEED_TOPIC, (m) => got.push(m));
    try {
      const from = await lastId();
      const batches = Array.from({ length: 6 }, () => Array.from({ length: 40 }, () => item('concurrent')));
      await Promise.all(batches.map((b) => ingest(b)));
      const stored = await idsAfter(from);
      expect(stored.length).toBe(240);
      await waitFor(() => got.length >= stored.length, 'every stored item streamed', 10_000);
      expect(got.map((m) => m.id)).toEqual(stored);
      expect(got.map((m) => m.prevId)).toEqual([from.toString(), ...stored.slice(0, -1)]);
    } finally {
      await unsubscribe();
    }
  });

  it('a stream repairs a lost message from the database, in order', async () => {
    // A second writer whose messages reach nobody (a publish lost in transit).
    const silent = { publish: async () => undefined, publishMany: async () => undefined } as unknown as PubSub;
    const lossy = new FeedService(app.services.db.prisma, silent, new SignedCursor('x'));
    const sse = await openSse(`${app.url}/api/feed/stream?source=repair`);
    try {
      const from = await lastId();
      await lossy.ingest([{ ...item('repair'), publishedAt: new Date() }]);
      await ingest([item('other'), item('repair')]);
      expect(await takeIds(sse, 2)).toEqual(await idsAfter(from, 'repair'));
    } finally {
      sse.close();
    }
  });

  it('two instances ingesting at once: live and resuming streams get every id once, in increasing order', async () => {
    const second = await startTestApp({ FEED_INGEST_TOKEN: TOKEN }, {}, { shareWith: app });
    const streams: { sse: SseReader; after: bigint }[] = [];
    try {
      const from = await lastId();
      const live = await openSse(`${second.url}/api/feed/stream`);
      streams.push({ sse: live, after: from });
      const work = Array.from({ length: 8 }, (_, k) =>
        ingestVia(
          k % 2 ? second : app,
          Array.from({ length: 25 }, () => item(`w${k % 3}`)),
        ),
      );
      // A client resuming mid-flight from whatever is committed by then.
      await work[0];
      const mid = await lastId();
      streams.push({
        sse: await openSse(`${second.url}/api/feed/stream`, { headers: { 'last-event-id': mid.toString() } }),
        after: mid,
      });
      await Promise.all(work);
      // Without Redis the instances share no pub/sub: the last message through `second` closes the gap.
      await ingestVia(second, [item('closing')]);
      for (const { sse, after } of streams) {
        const expected = await idsAfter(after);
        expect(await takeIds(sse, expected.length)).toEqual(expected);
      }
    } finally {
      for (const { sse } of streams) sse.close();
      await second.close();
    }
  });
});
