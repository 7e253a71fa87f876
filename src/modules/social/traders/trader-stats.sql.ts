import type { Prisma } from '../../../db/generated/client';
import { decimalToMicros, microsToDecimal } from '../../../money';
import type { PositionState } from '../../portfolio/position.math';
import type { OutcomeSide, Venue } from '../../../venues/venue.models';

/**
 * The set-based statements behind trader positions and stats: each reads or
 * writes a whole batch in one statement, its rows passed as one JSON parameter
 * read by `json_to_recordset` (not parameters per row, nor column arrays that
 * Prisma and the driver walk element by element), so a batch costs the same
 * handful of round trips whatever its size.
 */

/** What identifies a trader's position. */
export interface PositionKey {
  venue: Venue;
  traderId: string;
  venueMarketId: string;
  outcome: OutcomeSide;
}

export interface PositionRow extends PositionKey {
  position: PositionState;
}

/** Per-trader figures of a batch (micro-units). */
export interface StatRow {
  venue: Venue;
  traderId: string;
  volume: bigint;
  trades: number;
  wins: number;
  losses: number;
  realized: bigint;
  unrealized: bigint;
  first: Date;
  last: Date;
}

/** A stored decimal (≤ 6 places) read back as text, in micro-units; anything else is a bug. */
export function exactMicros(text: string): bigint {
  const micros = decimalToMicros(text);
  if (micros === null) throw new RangeError(`not a decimal: ${text}`);
  return micros;
}

/** The stored positions among `keys` (one statement). */
export async function readPositions(
  tx: Prisma.TransactionClient,
  keys: readonly PositionKey[],
): Promise<PositionRow[]> {
  if (keys.length === 0) return [];
  const json = JSON.stringify(keys.map((k) => ({ v: k.venue, t: k.traderId, m: k.venueMarketId, o: k.outcome })));
  const rows = await tx.$queryRaw<
    {
      venue: Venue;
      traderId: string;
      venueMarketId: string;
      outcome: OutcomeSide;
      size: string;
      costBasis: string;
      realizedPnl: string;
    }[]
  >`
    SELECT p."venue"::text AS "venue", p."traderId", p."venueMarketId", p."outcome"::text AS "outcome",
           p."size"::text AS "size", p."costBasis"::text AS "costBasis", p."realizedPnl"::text AS "realizedPnl"
    FROM "TraderPosition" p
    JOIN json_to_recordset(${json}::json) AS k(v text, t text, m text, o text)
      ON p."venue" = k.v::"Venue" AND p."traderId" = k.t AND p."venueMarketId" = k.m AND p."outcome" = k.o::"Outcome"`;
  return rows.map((r) => ({
    venue: r.venue,
    traderId: r.traderId,
    venueMarketId: r.venueMarketId,
    outcome: r.outcome,
    position: {
      size: exactMicros(r.size),
      costBasis: exactMicros(r.costBasis),
      realizedPnl: exactMicros(r.realizedPnl),
      fees: 0n,
    },
  }));
}

/** Inserts or overwrites positions (one statement). */
export async function writePositions(
  tx: Prisma.TransactionClient,
  rows: readonly PositionRow[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  const json = JSON.stringify(
    rows.map((r) => ({
      v: r.venue,
      t: r.traderId,
      m: r.venueMarketId,
      o: r.outcome,
      s: microsToDecimal(r.position.size),
      b: microsToDecimal(r.position.costBasis),
      p: microsToDecimal(r.position.realizedPnl),
    })),
  );
  await tx.$executeRaw`
    INSERT INTO "TraderPosition" ("venue", "traderId", "venueMarketId", "outcome", "size", "costBasis",
    "realizedPnl", "updatedAt")
    SELECT r.v::"Venue", r.t, r.m, r.o::"Outcome", r.s::numeric, r.b::numeric, r.p::numeric, ${now}
    FROM json_to_recordset(${json}::json) AS r(v text, t text, m text, o text, s text, b text, p text)
    ON CONFLICT ("venue", "traderId", "venueMarketId", "outcome") DO UPDATE SET
      "size" = EXCLUDED."size",
      "costBasis" = EXCLUDED."costBasis",
      "realizedPnl" = EXCLUDED."realizedPnl",
      "updatedAt" = EXCLUDED."updatedAt"`;
}

/**
 * Adds a batch's per-trader figures to the stats (one statement). A new trader
 * is inserted with `unrealized` and total PnL = realized + unrealized; an
 * existing one gets the counts, volume and realized PnL added (its unrealized
 * PnL stays as the last refresh marked it), the first and last trade times
 * widened.
 */
export async function addStats(tx: Prisma.TransactionClient, rows: readonly StatRow[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  const json = JSON.stringify(
    rows.map((r) => ({
      v: r.venue,
      t: r.traderId,
      vol: microsToDecimal(r.volume),
      n: r.trades,
      w: r.wins,
      l: r.losses,
      re: microsToDecimal(r.realized),
      un: microsToDecimal(r.unrealized),
      f: r.first.toISOString(),
      la: r.last.toISOString(),
    })),
  );
  await tx.$executeRaw`
    INSERT INTO "TraderStat" ("venue", "traderId", "totalVolume", "totalTrades", "winCount", "lossCount",
                              "realizedPnl", "unrealizedPnl", "totalPnl", "firstTradeAt", "lastTradeAt", "updatedAt")
    SELECT r.v::"Venue", r.t, r.vol::numeric, r.n, r.w, r.l,
           r.re::numeric, r.un::numeric, r.re::numeric + r.un::numeric,
           r.f::timestamp(3), r.la::timestamp(3), ${now}
    FROM json_to_recordset(${json}::json) AS r(v text, t text, vol text, n int, w int, l int, re text, un text,
    f text, la text)
    ON CONFLICT ("venue", "traderId") DO UPDATE SET
      "totalVolume" = "TraderStat"."totalVolume" + EXCLUDED."totalVolume",
      "totalTrades" = "TraderStat"."totalTrades" + EXCLUDED."totalTrades",
      "winCount" = "TraderStat"."winCount" + EXCLUDED."winCount",
      "lossCount" = "TraderStat"."lossCount" + EXCLUDED."lossCount",
      "realizedPnl" = "TraderStat"."realizedPnl" + EXCLUDED."realizedPnl",
      "totalPnl" = "TraderStat"."totalPnl" + EXCLUDED."realizedPnl",
      "firstTradeAt" = LEAST("TraderStat"."firstTradeAt", EXCLUDED."firstTradeAt"),
      "lastTradeAt" = GREATEST("TraderStat"."lastTradeAt", EXCLUDED."lastTradeAt"),
      "updatedAt" = EXCLUDED."updatedAt"`;
}
