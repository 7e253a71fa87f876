import type { PrismaClient } from '../../db/generated/client';
import type { PubSub } from '../../infra';
import type { PublicTrade, Venue, VenueClient } from '../../venues/venue.types';
import { TRADES_TOPIC, type TradeEvent } from '../trades/trades.models';
import { marketKey } from './catalog.service';

export interface TradeIngestOptions {
  /** How long trades wait to be written together (ms). */
  flushMs?: number;
  /** Largest batch written in one statement. */
  maxBatch?: number;
  onError?: (err: unknown) => void;
  /** Told about each batch of newly stored trades before they are published (derived stats). */
  onStored?: (trades: readonly PublicTrade[]) => Promise<void>;
}

/** A venue's public trade as a row of the trades table (exact decimals). */
export function toTradeRow(t: PublicTrade) {
  return {
    venue: t.venue,
    venueTradeId: t.venueTradeId,
    venueMarketId: t.venueMarketId,
    venueTraderId: t.venueTraderId,
    side: t.side,
    outcome: t.outcome,
    price: t.price.toFixed(6),
    size: t.size.toFixed(6),
    filledAt: t.filledAt,
  };
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
  private unsubscribers: (() => void)[] = [];
  private readonly flushMs: number;
  private readonly maxBatch: number;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly pubsub: PubSub,
    private readonly eventOfMarket: (key: string) => string | undefined,
    private readonly opts: TradeIngestOptions = {},
  ) {
    this.flushMs = opts.flushMs ?? 200;
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

  /** Writes what is buffered; resolves when it is stored and published. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.buffer.splice(0, this.buffer.length);
    if (batch.length === 0) return this.flushing;
    this.flushing = this.flushing
      .then(() => this.ingest(batch))
      .then(
        () => undefined,
        (err: unknown) => this.opts.onError?.(err),
      );
    return this.flushing;
  }

  /** Stores a batch and publishes the trades not seen before; returns those. */
  async ingest(trades: readonly PublicTrade[]): Promise<TradeEvent[]> {
    if (trades.length === 0) return [];
    const inserted = await this.prisma.trade.createManyAndReturn({
      data: trades.map(toTradeRow),
      skipDuplicates: true,
      select: { venueTradeId: true, venue: true },
    });
    const fresh = new Set(inserted.map((r) => `${r.venue}:${r.venueTradeId}`));
    return this.announce(trades, trades.filter((t) => fresh.has(`${t.venue}:${t.venueTradeId}`)));
  }

  /**
   * What follows a write: freshness from every trade `seen`, then derived stats
   * and publication of the ones newly `stored`. Public for writers that store
   * trades themselves (the chain-indexer webhook).
   */
  async announce(seen: readonly PublicTrade[], stored: readonly PublicTrade[]): Promise<TradeEvent[]> {
    if (seen.length > 0) await this.recordFreshness(seen);
    if (stored.length > 0) await this.opts.onStored?.(stored);
    const events = stored.map((t) => this.toEvent(t));
    for (const e of events) await this.pubsub.publish(TRADES_TOPIC, e);
    return events;
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribers.splice(0)) u();
    await this.flush();
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
      id: `${t.venue}:${t.venueTradeId}`,
      venue: t.venue,
      marketId: t.venueMarketId,
      eventId: this.eventOfMarket(marketKey(t.venue, t.venueMarketId)) ?? null,
      traderId: t.venueTraderId,
      side: t.side,
      outcome: t.outcome,
      price: t.price,
      size: t.size,
      filledAt: t.filledAt.toISOString(),
    };
  }
}
