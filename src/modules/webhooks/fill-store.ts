import type { RawSql } from '../../db/raw-sql';
import { ANNOUNCE_STEPS, inTradeKeyOrder, withWriteRetry } from '../ingestion';
import type { PublicTrade } from '../../venues/venue.models';

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
 * delivery, leased to this process for `leaseMs`). It is the indexer's hot
 * path, so it runs on the driver adapter, outside Prisma's raw-query layer
 * (see raw-sql.ts); the rows travel as one JSON parameter read by
 * `json_to_recordset`, not as parameters per row nor as column arrays (which
 * the client and the driver walk element by element); and the new trades' ids
 * come back only when some were stored before (otherwise all of them are new).
 * A 1,000-fill batch then costs about what a raw `INSERT … ON CONFLICT DO
 * NOTHING` costs.
 *
 * Rows go in in the canonical key order ({@link inTradeKeyOrder}): concurrent
 * deliveries of one batch in different orders would otherwise each hold a key
 * the other waits for (a deadlock on PostgreSQL). A deadlock or serialization
 * failure all the same runs the statement again.
 */
export async function insertTrades(
  sql: RawSql,
  trades: readonly PublicTrade[],
  leaseMs: number,
): Promise<StoredTrades> {
  if (trades.length === 0) return { fresh: new Set(), announcementId: null };
  // Short keys, numbers as JSON numbers (the columns' scale rounds them to 6 decimals, as
  // elsewhere), times as epoch milliseconds: the JSON is built, sent and parsed once per delivery.
  const rows = JSON.stringify(
    inTradeKeyOrder(trades).map((t) => ({
      v: t.venue,
      t: t.venueTradeId,
      m: t.venueMarketId,
      u: t.venueTraderId,
      s: t.side,
      o: t.outcome,
      p: t.price,
      z: t.size,
      a: t.filledAt.getTime(),
    })),
  );
  const steps = [...ANNOUNCE_STEPS];
  // One row back at most: the announcement, with the new trades' ids only when not all are new.
  const [ann] = await withWriteRetry(() =>
    sql.query<{ announcementId: bigint | number | string; tradeIds: string[] | null }>(
      `WITH ins AS (
        INSERT INTO "Trade" ("id", "venue", "venueTradeId", "venueMarketId", "venueTraderId", "side", "outcome",
        "price", "size", "filledAt")
        SELECT gen_random_uuid()::text, r.v::"Venue", r.t, r.m, r.u, r.s::"TradeSide", r.o::"Outcome", r.p, r.z,
        (timestamp '1970-01-01' + r.a * interval '1 millisecond')::timestamp(3)
        FROM json_to_recordset($1::json) AS r(v text, t text, m text, u text, s text, o text, p numeric, z
        numeric, a bigint)
        ON CONFLICT DO NOTHING
        RETURNING "venue", "venueTradeId"
      ), ann AS (
        INSERT INTO "TradeAnnouncement" ("venue", "tradeIds", "pending", "leaseUntil")
        SELECT MIN(ins."venue"), array_agg(ins."venueTradeId"), $2::text[], now() + $3::int * interval '1 millisecond'
        FROM ins HAVING count(*) > 0
        RETURNING "id", "tradeIds"
      )
      SELECT "id" AS "announcementId", CASE WHEN cardinality("tradeIds") = $4::int THEN NULL ELSE "tradeIds" END
        AS "tradeIds" FROM ann`,
      [rows, steps, leaseMs, trades.length],
    ),
  );
  if (!ann) return { fresh: new Set(), announcementId: null };
  return {
    fresh: new Set(ann.tradeIds ?? trades.map((t) => t.venueTradeId)),
    announcementId: BigInt(ann.announcementId),
  };
}
