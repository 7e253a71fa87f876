import type { PrismaClient } from '../../db/generated/client';
import { ANNOUNCE_STEPS, inTradeKeyOrder, withWriteRetry } from '../ingestion';
import type { PublicTrade } from '../../venues/venue.types';

/** What one insert of a delivery's trades wrote. */
export interface StoredTrades {
  /** The `venueTradeId`s of the rows written (the others were stored before). */
  fresh: Set<string>;
  /** The announcement row written with them; null when nothing was new. */
  announcementId: bigint | null;
}

/**
 * Inserts trades in one statement, skipping those already stored (the
 * (venue, venueTradeId) unique key), and in the same statement records the
 * new ones as waiting for their announcement (one `TradeAnnouncement` row per
 * delivery, leased to this process for `leaseMs`). Columns travel as arrays
 * through `unnest`, not as parameters per row: a 1,000-fill batch costs about
 * what a raw `INSERT … ON CONFLICT DO NOTHING` costs.
 *
 * Rows go in in the canonical key order ({@link inTradeKeyOrder}): concurrent
 * deliveries of one batch in different orders would otherwise each hold a key
 * the other waits for (a deadlock on PostgreSQL). A deadlock or serialization
 * failure all the same runs the statement again.
 */
export async function insertTrades(prisma: PrismaClient, trades: readonly PublicTrade[], leaseMs: number): Promise<StoredTrades> {
  if (trades.length === 0) return { fresh: new Set(), announcementId: null };
  const sorted = inTradeKeyOrder(trades);
  const col = <T>(f: (t: PublicTrade) => T) => sorted.map(f);
  const steps = [...ANNOUNCE_STEPS];
  // One row back at most (the announcement with the new trades' ids as one array), not a row per trade.
  const rows = await withWriteRetry(
    () => prisma.$queryRaw<{ announcementId: bigint; tradeIds: string[] }[]>`
    WITH ins AS (
      INSERT INTO "Trade" ("id", "venue", "venueTradeId", "venueMarketId", "venueTraderId", "side", "outcome", "price", "size", "filledAt")
      SELECT gen_random_uuid()::text, r.venue::"Venue", r.tid, r.mid, r.trader, r.side::"TradeSide", r.outcome::"Outcome", r.price::numeric, r.size::numeric, r.at::timestamp(3)
      FROM unnest(
        ${col((t) => t.venue)}::text[], ${col((t) => t.venueTradeId)}::text[],
        ${col((t) => t.venueMarketId)}::text[], ${col((t) => t.venueTraderId)}::text[], ${col((t) => t.side)}::text[],
        ${col((t) => t.outcome)}::text[], ${col((t) => t.price.toFixed(6))}::text[], ${col((t) => t.size.toFixed(6))}::text[],
        ${col((t) => t.filledAt.toISOString())}::text[]
      ) AS r(venue, tid, mid, trader, side, outcome, price, size, at)
      ON CONFLICT DO NOTHING
      RETURNING "venue", "venueTradeId"
    ), ann AS (
      INSERT INTO "TradeAnnouncement" ("venue", "tradeIds", "pending", "leaseUntil")
      SELECT MIN(ins."venue"), array_agg(ins."venueTradeId"), ${steps}::text[], now() + ${leaseMs} * interval '1 millisecond'
      FROM ins HAVING count(*) > 0
      RETURNING "id", "tradeIds"
    )
    SELECT "id" AS "announcementId", "tradeIds" FROM ann`,
  );
  const [ann] = rows;
  return { fresh: new Set(ann?.tradeIds ?? []), announcementId: ann?.announcementId ?? null };
}
