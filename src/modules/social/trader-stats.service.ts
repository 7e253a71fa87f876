import type { PrismaClient } from '../../db/generated/client';
import { decimalToMicros, microsToDecimal } from '../portfolio/micros';
import { EMPTY_POSITION, applyFill, unrealizedPnl, type PositionState } from '../portfolio/position.math';
import type { OutcomeSide, PublicTrade, Side, Venue } from '../../venues/venue.types';

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

  /** Applies newly stored trades (those with a trader identity), oldest first. */
  async apply(trades: readonly PublicTrade[]): Promise<void> {
    const rows = trades
      .filter((t) => t.venueTraderId !== null)
      .map((t): StatTrade => ({
        venue: t.venue,
        traderId: t.venueTraderId!,
        venueMarketId: t.venueMarketId,
        outcome: t.outcome,
        side: t.side,
        price: BigInt(Math.round(t.price * 1e6)),
        size: BigInt(Math.round(t.size * 1e6)),
        filledAt: t.filledAt,
      }))
      .sort((a, b) => a.filledAt.getTime() - b.filledAt.getTime());
    if (rows.length === 0) return;
    await this.prisma.$transaction(async (tx) => {
      // Read-modify-write of positions: serialise it across processes.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${STATS_LOCK})`;
      const existing = await tx.traderPosition.findMany({
        where: { OR: rows.map((r) => ({ venue: r.venue, traderId: r.traderId, venueMarketId: r.venueMarketId, outcome: r.outcome })) },
      });
      const positions = new Map<string, PositionState>(
        existing.map((p) => [
          key(p),
          { size: decimalToMicros(p.size), costBasis: decimalToMicros(p.costBasis), realizedPnl: decimalToMicros(p.realizedPnl), fees: 0n },
        ]),
      );
      const accs = accumulate(rows, positions);
      for (const [k, p] of positions) {
        const [venue, traderId, venueMarketId, outcome] = k.split('|') as [Venue, string, string, OutcomeSide];
        const data = { size: microsToDecimal(p.size), costBasis: microsToDecimal(p.costBasis), realizedPnl: microsToDecimal(p.realizedPnl) };
        await tx.traderPosition.upsert({
          where: { venue_traderId_venueMarketId_outcome: { venue, traderId, venueMarketId, outcome } },
          create: { venue, traderId, venueMarketId, outcome, ...data },
          update: data,
        });
      }
      for (const [k, a] of accs) {
        const [venue, traderId] = k.split('|') as [Venue, string];
        const realized = microsToDecimal(a.realized);
        await tx.traderStat.upsert({
          where: { venue_traderId: { venue, traderId } },
          create: {
            venue,
            traderId,
            totalVolume: microsToDecimal(a.volume),
            totalTrades: a.trades,
            winCount: a.wins,
            lossCount: a.losses,
            realizedPnl: realized,
            unrealizedPnl: '0',
            totalPnl: realized,
            firstTradeAt: a.first,
            lastTradeAt: a.last,
          },
          update: {
            totalVolume: { increment: microsToDecimal(a.volume) },
            totalTrades: { increment: a.trades },
            winCount: { increment: a.wins },
            lossCount: { increment: a.losses },
            realizedPnl: { increment: realized },
            totalPnl: { increment: realized },
            lastTradeAt: a.last,
          },
        });
      }
    });
  }

  /** Recomputes every trader from the trades table, with unrealized PnL at current marks. */
  async rebuild(): Promise<{ traders: number; trades: number }> {
    const trades = await this.prisma.trade.findMany({
      where: { venueTraderId: { not: null } },
      orderBy: [{ filledAt: 'asc' }, { id: 'asc' }],
      select: { venue: true, venueTraderId: true, venueMarketId: true, outcome: true, side: true, price: true, size: true, filledAt: true },
    });
    const rows = trades.map((t): StatTrade => ({
      venue: t.venue,
      traderId: t.venueTraderId!,
      venueMarketId: t.venueMarketId,
      outcome: t.outcome,
      side: t.side,
      price: decimalToMicros(t.price),
      size: decimalToMicros(t.size),
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
      const mark = outcome === 'yes' ? yes : 1_000_000n - yes;
      const tk = `${venue}|${traderId}`;
      unrealized.set(tk, (unrealized.get(tk) ?? 0n) + unrealizedPnl(p, mark));
    }
    await this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${STATS_LOCK})`;
      await tx.traderPosition.deleteMany({});
      await tx.traderStat.deleteMany({});
      await tx.traderPosition.createMany({
        data: [...positions].map(([k, p]) => {
          const [venue, traderId, venueMarketId, outcome] = k.split('|') as [Venue, string, string, OutcomeSide];
          return {
            venue,
            traderId,
            venueMarketId,
            outcome,
            size: microsToDecimal(p.size),
            costBasis: microsToDecimal(p.costBasis),
            realizedPnl: microsToDecimal(p.realizedPnl),
          };
        }),
      });
      await tx.traderStat.createMany({
        data: [...accs].map(([k, a]) => {
          const [venue, traderId] = k.split('|') as [Venue, string];
          const u = unrealized.get(k) ?? 0n;
          return {
            venue,
            traderId,
            totalVolume: microsToDecimal(a.volume),
            totalTrades: a.trades,
            winCount: a.wins,
            lossCount: a.losses,
            realizedPnl: microsToDecimal(a.realized),
            unrealizedPnl: microsToDecimal(u),
            totalPnl: microsToDecimal(a.realized + u),
            firstTradeAt: a.first,
            lastTradeAt: a.last,
          };
        }),
      });
    });
    return { traders: accs.size, trades: rows.length };
  }

  /** YES marks (micro-units) of every market: mid when quoted, else last price. */
  private async marks(): Promise<Map<string, bigint>> {
    const markets = await this.prisma.market.findMany({ select: { venue: true, venueMarketId: true, bestBid: true, bestAsk: true, lastPrice: true } });
    const out = new Map<string, bigint>();
    for (const m of markets) {
      const mark =
        m.bestBid !== null && m.bestAsk !== null
          ? (decimalToMicros(m.bestBid) + decimalToMicros(m.bestAsk)) / 2n
          : m.lastPrice !== null
            ? decimalToMicros(m.lastPrice)
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
    const notional = (t.price * size + 500_000n) / 1_000_000n;
    const after = size === 0n ? before : applyFill(before, { side: t.side, size, notional, fee: 0n });
    positions.set(pk, after);
    const realized = after.realizedPnl - before.realizedPnl;
    const tk = `${t.venue}|${t.traderId}`;
    const a = accs.get(tk) ?? { volume: 0n, trades: 0, wins: 0, losses: 0, realized: 0n, first: t.filledAt, last: t.filledAt };
    a.volume += (t.price * t.size + 500_000n) / 1_000_000n;
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
