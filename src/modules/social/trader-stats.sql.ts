import type { Prisma } from '../../db/generated/client';
import { decimalToMicros, microsToDecimal } from '../ledger/money';
import type { PositionState } from '../portfolio/position.math';
import type { OutcomeSide, Venue } from '../../venues/venue.types';

/**
 * The set-based statements behind trader positions and stats: each reads or
 * writes a whole batch in one statement, its columns passed as arrays through
 * `unnest` (a few parameters, not a few per row), so a batch costs the same
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
export async function readPositions(tx: Prisma.TransactionClient, keys: readonly PositionKey[]): Promise<PositionRow[]> {
  if (keys.length === 0) return [];
  const col = <T>(f: (k: PositionKey) => T) => keys.map(f);
  const rows = await tx.$queryRaw<
    { venue: Venue; traderId: string; venueMarketId: string; outcome: OutcomeSide; size: string; costBasis: string; realizedPnl: string }[]
  >`
    SELECT p."venue"::text AS "venue", p."traderId", p."venueMarketId", p."outcome"::text AS "outcome",
           p."size"::text AS "size", p."costBasis"::text AS "costBasis", p."realizedPnl"::text AS "realizedPnl"
    FROM "TraderPosition" p
    JOIN unnest(${col((k) => k.venue)}::text[], ${col((k) => k.traderId)}::text[], ${col((k) => k.venueMarketId)}::text[], ${col((k) => k.outcome)}::text[])
      AS k(venue, trader, market, outcome)
      ON p."venue" = k.venue::"Venue" AND p."traderId" = k.trader AND p."venueMarketId" = k.market AND p."outcome" = k.outcome::"Outcome"`;
  return rows.map((r) => ({
    venue: r.venue,
    traderId: r.traderId,
    venueMarketId: r.venueMarketId,
    outcome: r.outcome,
    position: { size: exactMicros(r.size), costBasis: exactMicros(r.costBasis), realizedPnl: exactMicros(r.realizedPnl), fees: 0n },
  }));
}

/** Inserts or overwrites positions (one statement). */
export async function writePositions(tx: Prisma.TransactionClient, rows: readonly PositionRow[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  const col = <T>(f: (r: PositionRow) => T) => rows.map(f);
  await tx.$executeRaw`
    INSERT INTO "TraderPosition" ("venue", "traderId", "venueMarketId", "outcome", "size", "costBasis", "realizedPnl", "updatedAt")
    SELECT r.venue::"Venue", r.trader, r.market, r.outcome::"Outcome", r.size::numeric, r.basis::numeric, r.realized::numeric, ${now}
    FROM unnest(
      ${col((r) => r.venue)}::text[], ${col((r) => r.traderId)}::text[], ${col((r) => r.venueMarketId)}::text[],
      ${col((r) => r.outcome)}::text[], ${col((r) => microsToDecimal(r.position.size))}::text[],
      ${col((r) => microsToDecimal(r.position.costBasis))}::text[], ${col((r) => microsToDecimal(r.position.realizedPnl))}::text[]
    ) AS r(venue, trader, market, outcome, size, basis, realized)
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
  const col = <T>(f: (r: StatRow) => T) => rows.map(f);
  await tx.$executeRaw`
    INSERT INTO "TraderStat" ("venue", "traderId", "totalVolume", "totalTrades", "winCount", "lossCount",
                              "realizedPnl", "unrealizedPnl", "totalPnl", "firstTradeAt", "lastTradeAt", "updatedAt")
    SELECT r.venue::"Venue", r.trader, r.volume::numeric, r.trades, r.wins, r.losses,
           r.realized::numeric, r.unrealized::numeric, r.realized::numeric + r.unrealized::numeric,
           r.first::timestamp(3), r.last::timestamp(3), ${now}
    FROM unnest(
      ${col((r) => r.venue)}::text[], ${col((r) => r.traderId)}::text[], ${col((r) => microsToDecimal(r.volume))}::text[],
      ${col((r) => r.trades)}::int[], ${col((r) => r.wins)}::int[], ${col((r) => r.losses)}::int[],
      ${col((r) => microsToDecimal(r.realized))}::text[], ${col((r) => microsToDecimal(r.unrealized))}::text[],
      ${col((r) => r.first.toISOString())}::text[], ${col((r) => r.last.toISOString())}::text[]
    ) AS r(venue, trader, volume, trades, wins, losses, realized, unrealized, first, last)
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
