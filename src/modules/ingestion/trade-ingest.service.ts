import type { PrismaClient, Trade } from '../../db/generated/client';
import type { PubSub } from '../../infra';
import type { PublicTrade, Venue } from '../../venues/venue.models';
import type { VenueClient } from '../../venues/venue-client';
import { TRADES_TOPIC, tradeFigures, type TradeEvent } from '../trades/trades.models';
import { marketKey } from './catalog.service';
import { withWriteRetry } from './write-retry';

/**
 * What follows storing new trades, in this order: publication on the trades
 * topic (as soon as the trades are durable: live clients wait for nothing
 * derived), then derived trader stats and notifications to the traders'
 * followers.
 */
export const ANNOUNCE_STEPS = ['publish', 'stats', 'notify'] as const;
export type AnnounceStep = (typeof ANNOUNCE_STEPS)[number];

export interface TradeIngestOptions {
  /**
   * How long trades wait to be written together (ms). 0 (the default) writes what arrived in
   * the same turn of the event loop together: a batching window here is latency every live
   * client sees.
   */
  flushMs?: number;
  /** Largest batch written in one statement. */
  maxBatch?: number;
  /** A batch could not be stored. */
  onError?: (err: unknown) => void;
  /** An announcement step (or the freshness record) failed; the other steps ran all the same. */
  onStepError?: (step: AnnounceStep | 'freshness', err: unknown) => void;
  /** The `stats` step: derived trader stats of newly stored trades. */
  applyStats?: (trades: readonly PublicTrade[]) => Promise<void>;
  /** The `notify` step: tells the followers of the trades' traders. */
  notifyFollowers?: (trades: readonly PublicTrade[]) => Promise<void>;
}

/** What an announcement did: the events of the stored trades, and the steps that failed. */
export interface Announcement {
  events: TradeEvent[];
  failed: AnnounceStep[];
}

/**
 * Trades in one canonical order, (venue, venueTradeId) by code unit: every
 * writer inserts into the trades table in this order, so two concurrent
 * inserts of overlapping batches wait on each other instead of deadlocking on
 * the unique key.
 */
export function inTradeKeyOrder<T extends Pick<PublicTrade, 'venue' | 'venueTradeId'>>(trades: readonly T[]): T[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...trades].sort((a, b) => cmp(a.venue, b.venue) || cmp(a.venueTradeId, b.venueTradeId));
}

/** What a public trade and its row of the trades table hold alike: everything but the decimals. */
function tradeColumns(t: Omit<PublicTrade, 'price' | 'size'>): Omit<PublicTrade, 'price' | 'size'> {
  return {
    venue: t.venue,
    venueTradeId: t.venueTradeId,
    venueMarketId: t.venueMarketId,
    venueTraderId: t.venueTraderId,
    side: t.side,
    outcome: t.outcome,
    filledAt: t.filledAt,
  };
}

/** A trades-table row read back as text decimals. */
type TradeRowText = Omit<PublicTrade, 'price' | 'size'> & { price: string; size: string };

/** Each trade of a batch once by (venue, venueTradeId), with the trader whichever copy named. */
function onceEach(batch: readonly PublicTrade[]): PublicTrade[] {
  const byKey = new Map<string, PublicTrade>();
  for (const t of batch) {
    const key = `${t.venue}:${t.venueTradeId}`;
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, t);
    else if (seen.venueTraderId === null && t.venueTraderId !== null) {
      byKey.set(key, { ...seen, venueTraderId: t.venueTraderId });
    }
  }
  return byKey.size === batch.length ? [...batch] : [...byKey.values()];
}

/** A venue's public trade as a row of the trades table (exact decimals). */
export function toTradeRow(t: PublicTrade) {
  return { ...tradeColumns(t), price: t.price.toFixed(6), size: t.size.toFixed(6) };
}

/** A row of the trades table as the venue's public trade again (the inverse of {@link toTradeRow}). */
export function fromTradeRow(t: Trade): PublicTrade {
  return { ...tradeColumns(t), price: Number(t.price), size: Number(t.size) };
}

/**
 * Writes the venues' live public trades to the database in batches, then
 * publishes the ones it inserted. Inserting with skip-duplicates by
 * (venue, venueTradeId) means several processes ingesting the same feed store
 * and publish each trade once.
 */
export class TradeIngestService {
  private buffer: PublicTrade[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  /** The derived steps (stats, notify) of flushed batches, in order, behind their publication. */
  private deriving: Promise<void> = Promise.resolve();
  private unsubscribers: (() => void)[] = [];
  private readonly flushMs: number;
  private readonly maxBatch: number;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly pubsub: PubSub,
    private readonly eventOfMarket: (key: string) => string | undefined,
    private readonly opts: TradeIngestOptions = {},
  ) {
    this.flushMs = opts.flushMs ?? 0;
    this.maxBatch = opts.maxBatch ?? 500;
  }

  /** Starts listening to the clients' live trades. */
  start(clients: readonly VenueClient[]): void {
    for (const c of clients) this.unsubscribers.push(c.onTrade((t) => this.enqueue(t)));
  }

  enqueue(trade: PublicTrade): void {
    this.buffer.push(trade);
    if (this.buffer.length >= this.maxBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
  }

  /**
   * Writes what is buffered; resolves when it is stored and published. The next batch is
   * written as soon as this one is published: the derived steps (stats, notify) follow on a
   * chain of their own, in batch order ({@link stop} waits for them).
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.buffer.splice(0, this.buffer.length);
    if (batch.length === 0) return this.flushing;
    this.flushing = this.flushing
      .then(async () => {
        const stored = await this.store(batch);
        await this.announce(batch, stored, ['publish']);
        // Trades stored before without their trader (a stream's print) and named now count for stats and followers.
        const identified = await this.identify(batch, stored);
        const derived = [...stored, ...identified];
        if (derived.length === 0) return;
        // announce() reports its failures (onStepError) and never rejects.
        this.deriving = this.deriving.then(async () => {
          await this.announce([], derived, ['stats', 'notify']);
        });
      })
      .then(
        () => undefined,
        (err: unknown) => this.opts.onError?.(err),
      );
    return this.flushing;
  }

  /** Stores a batch and announces the trades not seen before (every step); returns their events. */
  async ingest(trades: readonly PublicTrade[]): Promise<TradeEvent[]> {
    return (await this.announce(trades, await this.store(trades))).events;
  }

  /**
   * Stores a batch (skipping trades stored before); returns the trades it inserted, each once (a
   * trade two feeds delivered in one batch is one, with the trader whichever of them named).
   */
  private async store(batch: readonly PublicTrade[]): Promise<PublicTrade[]> {
    if (batch.length === 0) return [];
    const trades = onceEach(batch);
    const data = inTradeKeyOrder(trades).map(toTradeRow);
    const inserted = await withWriteRetry(() =>
      this.prisma.trade.createManyAndReturn({
        data,
        skipDuplicates: true,
        select: { venueTradeId: true, venue: true },
      }),
    );
    const fresh = new Set(inserted.map((r) => `${r.venue}:${r.venueTradeId}`));
    return trades.filter((t) => fresh.has(`${t.venue}:${t.venueTradeId}`));
  }

  /**
   * What follows a write: the `steps` for the trades newly `stored` (all by
   * default; publication first), then freshness from every trade `seen`. Each step runs whatever
   * happened to the others: a failure is reported to `onStepError` and listed
   * in the answer, so a writer that keeps a durable record of pending steps
   * (the chain-indexer webhook) can run just those again. Public for writers
   * that store trades themselves.
   */
  async announce(
    seen: readonly PublicTrade[],
    stored: readonly PublicTrade[],
    steps: readonly AnnounceStep[] = ANNOUNCE_STEPS,
  ): Promise<Announcement> {
    const events = stored.map((t) => this.toEvent(t));
    const failed: AnnounceStep[] = [];
    for (const step of stored.length === 0 ? [] : ANNOUNCE_STEPS) {
      if (!steps.includes(step)) continue;
      if (!(await this.attempt(step, () => this.run(step, stored, events)))) failed.push(step);
    }
    if (seen.length > 0) await this.attempt('freshness', () => this.recordFreshness(seen));
    return { events, failed };
  }

  private async run(step: AnnounceStep, stored: readonly PublicTrade[], events: readonly TradeEvent[]): Promise<void> {
    switch (step) {
      case 'stats':
        return this.opts.applyStats?.(stored);
      case 'notify':
        return this.opts.notifyFollowers?.(stored);
      case 'publish':
        // In order, all or none: one round trip over Redis, and a retry publishes each once.
        return this.pubsub.publishMany(TRADES_TOPIC, events);
      default: {
        const never: never = step;
        throw new Error(`unknown announcement step ${String(never)}`);
      }
    }
  }

  private async attempt(step: AnnounceStep | 'freshness', work: () => Promise<void>): Promise<boolean> {
    try {
      await work();
      return true;
    } catch (err) {
      this.opts.onStepError?.(step, err);
      return false;
    }
  }

  /**
   * Names the trader of trades stored earlier without one (venue_a's websocket prints name no
   * wallet; its polled tape does): one conditional update, rows locked in key order (two processes
   * polling one tape wait on each other instead of deadlocking), and only a row still without a
   * trader is changed, so each trade is identified once across processes. Returns those trades as
   * stored (their figures are the first feed's).
   */
  private async identify(batch: readonly PublicTrade[], stored: readonly PublicTrade[]): Promise<PublicTrade[]> {
    const inserted = new Set(stored.map((t) => `${t.venue}:${t.venueTradeId}`));
    const named = inTradeKeyOrder(
      onceEach(batch).filter((t) => t.venueTraderId !== null && !inserted.has(`${t.venue}:${t.venueTradeId}`)),
    );
    if (named.length === 0) return [];
    const rows = await withWriteRetry(
      () => this.prisma.$queryRaw<TradeRowText[]>`
        WITH k AS (
          SELECT * FROM unnest(${named.map((t) => t.venue)}::text[], ${named.map((t) => t.venueTradeId)}::text[],
                               ${named.map((t) => t.venueTraderId)}::text[]) AS k(venue, id, trader)
        ), todo AS (
          SELECT tr."id", k.trader FROM "Trade" tr
          JOIN k ON tr."venue" = k.venue::"Venue" AND tr."venueTradeId" = k.id
          WHERE tr."venueTraderId" IS NULL
          ORDER BY tr."venue", tr."venueTradeId"
          FOR UPDATE OF tr
        )
        UPDATE "Trade" u SET "venueTraderId" = todo.trader FROM todo
        WHERE u."id" = todo."id" AND u."venueTraderId" IS NULL
        RETURNING u."venue"::text AS "venue", u."venueTradeId", u."venueMarketId", u."venueTraderId",
          u."side"::text AS "side", u."outcome"::text AS "outcome", u."price"::text AS "price",
          u."size"::text AS "size", u."filledAt"`,
    );
    return rows.map((r) => ({ ...r, price: Number(r.price), size: Number(r.size) }));
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribers.splice(0)) u();
    await this.flush();
    await this.deriving;
  }

  private async recordFreshness(trades: readonly PublicTrade[]): Promise<void> {
    const byVenue = new Map<Venue, { last: Date; count: number }>();
    for (const t of trades) {
      const cur = byVenue.get(t.venue);
      if (!cur) byVenue.set(t.venue, { last: t.filledAt, count: 1 });
      else {
        cur.count += 1;
        if (t.filledAt > cur.last) cur.last = t.filledAt;
      }
    }
    const now = new Date();
    for (const [venue, { last, count }] of byVenue) {
      // GREATEST keeps the newest fill time when batches of several processes interleave.
      await this.prisma.$executeRaw`
        INSERT INTO "IngestState" ("venue", "lastTradeAt", "lastSeenAt", "tradesSeen", "updatedAt")
        VALUES (${venue}::"Venue", ${last}, ${now}, ${count}, ${now})
        ON CONFLICT ("venue") DO UPDATE SET
          "lastTradeAt" = GREATEST("IngestState"."lastTradeAt", EXCLUDED."lastTradeAt"),
          "lastSeenAt" = EXCLUDED."lastSeenAt",
          "tradesSeen" = "IngestState"."tradesSeen" + EXCLUDED."tradesSeen",
          "updatedAt" = EXCLUDED."updatedAt"`;
    }
  }

  private toEvent(t: PublicTrade): TradeEvent {
    return {
      ...tradeFigures(t),
      eventId: this.eventOfMarket(marketKey(t.venue, t.venueMarketId)) ?? null,
      traderId: t.venueTraderId,
      filledAt: t.filledAt.toISOString(),
    };
  }
}
