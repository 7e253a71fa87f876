import type { PrismaClient } from '../../../db/generated/client';
import {
  EMPTY_POSITION,
  applyFill,
  outcomeMark,
  unrealizedPnl,
  type PositionState,
} from '../../portfolio/position.math';
import type { OutcomeSide, PublicTrade, Side, Venue } from '../../../venues/venue.models';
import {
  addStats,
  exactMicros,
  readPositions,
  writePositions,
  type PositionKey,
  type PositionRow,
  type StatRow,
} from './trader-stats.sql';
import { toMicros, mulMicros } from '../../../money/money';

/** A trade as the stats need it (prices and sizes in micro-units). */
interface StatTrade {
  venue: Venue;
  traderId: string;
  venueMarketId: string;
  outcome: OutcomeSide;
  side: Side;
  price: bigint;
  size: bigint;
  filledAt: Date;
}

interface Acc {
  volume: bigint;
  trades: number;
  wins: number;
  losses: number;
  realized: bigint;
  first: Date;
  last: Date;
}

/** Advisory lock id guarding trader positions and stats. */
const STATS_LOCK = 7_301_001;

/** Rows per statement when a rebuild rewrites the tables. */
const REBUILD_CHUNK = 5_000;

const key = (t: Pick<StatTrade, 'venue' | 'traderId' | 'venueMarketId' | 'outcome'>) =>
  `${t.venue}|${t.traderId}|${t.venueMarketId}|${t.outcome}`;

/**
 * Trader statistics from public trades: average-cost positions per market
 * outcome; volume (price × size), trade count, realized PnL, wins and losses
 * (sells that realized a gain or a loss). A sell larger than the position we
 * have seen (the trader bought before our history starts) closes what is held
 * and the excess is not counted. Incremental on ingest; `rebuild` recomputes
 * everything from the trades table and marks unrealized PnL to market.
 */
export class TraderStatsService {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Applies newly stored trades (those with a trader identity), oldest first.
   * Set-based: under the stats lock it reads the touched positions in one
   * statement, replays the batch over them in memory, then writes positions
   * and per-trader figures in one statement each, whatever the batch size.
   */
  async apply(trades: readonly PublicTrade[]): Promise<void> {
    const rows = trades
      .filter((t) => t.venueTraderId !== null)
      .map((t): StatTrade => ({
        venue: t.venue,
        traderId: t.venueTraderId!,
        venueMarketId: t.venueMarketId,
        outcome: t.outcome,
        side: t.side,
        price: toMicros(t.price),
        size: toMicros(t.size),
        filledAt: t.filledAt,
      }))
      .sort((a, b) => a.filledAt.getTime() - b.filledAt.getTime());
    if (rows.length === 0) return;
    const keys = new Map<string, PositionKey>();
    for (const r of rows)
      keys.set(key(r), { venue: r.venue, traderId: r.traderId, venueMarketId: r.venueMarketId, outcome: r.outcome });
    await this.prisma.$transaction(async (tx) => {
      // Read-modify-write of positions: serialise it across processes.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${STATS_LOCK})`;
      const existing = await readPositions(tx, [...keys.values()]);
      const positions = new Map<string, PositionState>(existing.map((p) => [key(p), p.position]));
      const accs = accumulate(rows, positions);
      const now = new Date();
      await writePositions(tx, positionRows(positions), now);
      await addStats(tx, statRows(accs, new Map()), now);
    });
  }

  /** Recomputes every trader from the trades table, with unrealized PnL at current marks. */
  async rebuild(): Promise<{ traders: number; trades: number }> {
    const trades = await this.prisma.trade.findMany({
      where: { venueTraderId: { not: null } },
      orderBy: [{ filledAt: 'asc' }, { id: 'asc' }],
      select: {
        venue: true,
        venueTraderId: true,
        venueMarketId: true,
        outcome: true,
        side: true,
        price: true,
        size: true,
        filledAt: true,
      },
    });
    const rows = trades.map((t): StatTrade => ({
      venue: t.venue,
      traderId: t.venueTraderId!,
      venueMarketId: t.venueMarketId,
      outcome: t.outcome,
      side: t.side,
      price: exactMicros(t.price.toString()),
      size: exactMicros(t.size.toString()),
      filledAt: t.filledAt,
    }));
    const positions = new Map<string, PositionState>();
    const accs = accumulate(rows, positions);
    const marks = await this.marks();
    const unrealized = new Map<string, bigint>();
    for (const [k, p] of positions) {
      const [venue, traderId, venueMarketId, outcome] = k.split('|') as [Venue, string, string, OutcomeSide];
      const yes = marks.get(`${venue}|${venueMarketId}`);
      if (yes === undefined || p.size === 0n) continue;
      const mark = outcomeMark(yes, outcome);
      const tk = `${venue}|${traderId}`;
      unrealized.set(tk, (unrealized.get(tk) ?? 0n) + unrealizedPnl(p, mark));
    }
    await this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${STATS_LOCK})`;
      await tx.traderPosition.deleteMany({});
      await tx.traderStat.deleteMany({});
      // Into empty tables the upserts are plain inserts (chunked: each row is a handful of array elements).
      const now = new Date();
      const pos = positionRows(positions);
      for (let i = 0; i < pos.length; i += REBUILD_CHUNK)
        await writePositions(tx, pos.slice(i, i + REBUILD_CHUNK), now);
      const stats = statRows(accs, unrealized);
      for (let i = 0; i < stats.length; i += REBUILD_CHUNK) await addStats(tx, stats.slice(i, i + REBUILD_CHUNK), now);
    });
    return { traders: accs.size, trades: rows.length };
  }

  /** YES marks (micro-units) of every market: mid when quoted, else last price. */
  private async marks(): Promise<Map<string, bigint>> {
    const markets = await this.prisma.market.findMany({
      select: { venue: true, venueMarketId: true, bestBid: true, bestAsk: true, lastPrice: true },
    });
    const out = new Map<string, bigint>();
    for (const m of markets) {
      const mark =
        m.bestBid !== null && m.bestAsk !== null
          ? (exactMicros(m.bestBid.toString()) + exactMicros(m.bestAsk.toString())) / 2n
          : m.lastPrice !== null
            ? exactMicros(m.lastPrice.toString())
            : undefined;
      if (mark !== undefined) out.set(`${m.venue}|${m.venueMarketId}`, mark);
    }
    return out;
  }
}

/** Replays trades over positions, returning per-trader accumulations (positions are updated in place). */
function accumulate(rows: readonly StatTrade[], positions: Map<string, PositionState>): Map<string, Acc> {
  const accs = new Map<string, Acc>();
  for (const t of rows) {
    const pk = key(t);
    const before = positions.get(pk) ?? EMPTY_POSITION;
    const size = t.side === 'sell' && t.size > before.size ? before.size : t.size;
    const notional = mulMicros(t.price, size);
    const after = size === 0n ? before : applyFill(before, { side: t.side, size, notional, fee: 0n });
    positions.set(pk, after);
    const realized = after.realizedPnl - before.realizedPnl;
    const tk = `${t.venue}|${t.traderId}`;
    const a = accs.get(tk) ?? {
      volume: 0n,
      trades: 0,
      wins: 0,
      losses: 0,
      realized: 0n,
      first: t.filledAt,
      last: t.filledAt,
    };
    a.volume += mulMicros(t.price, t.size);
    a.trades += 1;
    if (t.side === 'sell' && realized > 0n) a.wins += 1;
    if (t.side === 'sell' && realized < 0n) a.losses += 1;
    a.realized += realized;
    if (t.filledAt > a.last) a.last = t.filledAt;
    if (t.filledAt < a.first) a.first = t.filledAt;
    accs.set(tk, a);
  }
  return accs;
}

function positionRows(positions: ReadonlyMap<string, PositionState>): PositionRow[] {
  return [...positions].map(([k, position]) => {
    const [venue, traderId, venueMarketId, outcome] = k.split('|') as [Venue, string, string, OutcomeSide];
    return { venue, traderId, venueMarketId, outcome, position };
  });
}

function statRows(accs: ReadonlyMap<string, Acc>, unrealized: ReadonlyMap<string, bigint>): StatRow[] {
  return [...accs].map(([k, a]) => {
    const [venue, traderId] = k.split('|') as [Venue, string];
    return {
      venue,
      traderId,
      volume: a.volume,
      trades: a.trades,
      wins: a.wins,
      losses: a.losses,
      realized: a.realized,
      unrealized: unrealized.get(k) ?? 0n,
      first: a.first,
      last: a.last,
    };
  });
}
