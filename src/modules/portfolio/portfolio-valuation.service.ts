import type { Logger } from '../../http/logger';
import { VENUES, type Venue } from '../../venues/venue.models';
import type { LedgerService } from '../ledger';
import { microsToNumber, toMicros } from '../../money';
import { outcomeMark } from './position.math';
import type { WalletsService } from '../wallets';
import type { YesMark } from './marks.service';
import { categoryFigures, summarize, valuation, type ExposureFigures, type FigurePosition } from './portfolio-figures';
import type { PortfolioLoaders } from './portfolio.loaders';
import type { MarkView, PositionView, VenueMarkStatusView } from './portfolio.models';
import type {
  AnalyticsView,
  BalancesView,
  ExposureView,
  OpenPositionsView,
  PositionBucketView,
  SourcePnlView,
  SummaryView,
} from './portfolio-valuation.models';
import type { TradeHistoryService } from './trade-history.service';
import type { PaperAccounts } from '../paper';
import type { ExecutionMode } from '../execution/execution.limits';

/** Whose portfolio, and which account: live, or the paper one. */
interface Account {
  userId: string;
  mode: ExecutionMode;
}

const num = microsToNumber;
/** Back to micro-units from a JSON amount made by microsToNumber (exact below 2^53 micro-units). */
const fromNumber = toMicros;
const shareOf = microsToNumber;
const markKey = (p: Pick<PositionView, 'venue' | 'marketId'>) => `${p.venue}:${p.marketId}`;

/** A bucket's open positions and their value, for JSON. */
function bucketView(e: ExposureFigures): PositionBucketView {
  return {
    positions: e.positions,
    costBasis: num(e.costBasis),
    marketValue: num(e.marketValue),
    unrealizedPnl: num(e.unrealizedPnl),
  };
}

function exposureView(e: ExposureFigures): ExposureView {
  return { key: e.key, ...bucketView(e), share: shareOf(e.shareMillionths) };
}

/** Venues the marks came from, with whether every mark of each was live. */
export function markStatus(marks: readonly YesMark[]): VenueMarkStatusView[] {
  return VENUES.flatMap((venue: Venue) => {
    const mine = marks.filter((m) => m.venue === venue);
    if (mine.length === 0) return [];
    const notLive = mine.find((m) => m.source !== 'live');
    return [
      {
        venue,
        live: notLive === undefined,
        markets: mine.length,
        lastKnown: mine.filter((m) => m.source === 'last_known').length,
        unmarked: mine.filter((m) => m.source === 'none').length,
        reason: notLive?.reason ?? null,
      },
    ];
  });
}

/**
 * The portfolio's composite reads, over the request's loaders: open positions
 * across the service and linked wallets, marks, PnL and exposure, category
 * analytics and balances. Figures are computed in micro-units by the pure
 * functions of portfolio-figures and converted to JSON numbers at the end.
 */
export class PortfolioValuationService {
  constructor(
    private readonly wallets: WalletsService,
    private readonly ledger: LedgerService,
    private readonly history: TradeHistoryService,
    private readonly paper: PaperAccounts,
    private readonly logger?: Logger,
  ) {}

  /** Every position of the account: the service's, then (live) the linked wallets'. */
  async allPositions(account: Account, reads: PortfolioLoaders): Promise<PositionView[]> {
    const [service, wallet] = await Promise.all([
      reads.servicePositions.load(account.userId),
      account.mode === 'live' ? reads.walletPositions.load(account.userId) : [],
    ]);
    return [...service.filter((p) => p.mode === account.mode), ...wallet];
  }

  /** The mark of a position's outcome. */
  async markOf(p: PositionView, reads: PortfolioLoaders): Promise<MarkView> {
    const m = await reads.yesMark.load(markKey(p));
    const price = m.yes === null ? null : outcomeMark(m.yes, p.outcome);
    return {
      price: price === null ? null : num(price),
      yesPrice: m.yes === null ? null : num(m.yes),
      source: m.source,
      asOf: m.asOf,
      reason: m.reason,
    };
  }

  /**
   * Value at the mark and unrealized PnL of one position (null when unmarked; zero when flat, without a venue call).
   */
  async valueOf(
    p: PositionView,
    reads: PortfolioLoaders,
  ): Promise<{ marketValue: number | null; unrealizedPnl: number | null }> {
    let mark: bigint | null = null;
    if (p.micros.size !== 0n) {
      const m = await reads.yesMark.load(markKey(p));
      mark = m.yes === null ? null : outcomeMark(m.yes, p.outcome);
    }
    const v = valuation({ size: p.micros.size, costBasis: p.micros.costBasis, mark });
    return {
      marketValue: v.marketValue === null ? null : num(v.marketValue),
      unrealizedPnl: v.unrealized === null ? null : num(v.unrealized),
    };
  }

  /** Every position with its category and (open ones) its mark, and the marks used. */
  private async figures(
    account: Account,
    reads: PortfolioLoaders,
  ): Promise<{ positions: FigurePosition[]; marks: YesMark[] }> {
    const all = await this.allPositions(account, reads);
    const open = all.filter((p) => p.status === 'open');
    const [marks, markets] = await Promise.all([
      reads.yesMark.loadMany([...new Set(open.map(markKey))]),
      reads.marketById.loadMany(all.map(markKey)),
    ]);
    const markByKey = new Map<string, YesMark>();
    for (const m of marks) if (!(m instanceof Error)) markByKey.set(`${m.venue}:${m.marketId}`, m);
    const eventIds = all.map((p, i) => {
      const market = markets[i];
      return p.eventId ?? (market && !(market instanceof Error) ? market.eventId : null);
    });
    const events = await reads.eventById.loadMany([...new Set(eventIds.filter((e): e is string => e !== null))]);
    const category = new Map<string, string>();
    for (const e of events) if (e && !(e instanceof Error)) category.set(e.id, e.category);
    const positions = all.map((p, i): FigurePosition => {
      const yes = p.status === 'open' ? (markByKey.get(markKey(p))?.yes ?? null) : null;
      return {
        source: p.source,
        venue: p.venue,
        category: (eventIds[i] && category.get(eventIds[i])) ?? null,
        status: p.status,
        size: p.micros.size,
        costBasis: p.micros.costBasis,
        realizedPnl: p.micros.realizedPnl,
        fees: p.micros.fees,
        mark: yes === null ? null : outcomeMark(yes, p.outcome),
      };
    });
    return { positions, marks: [...markByKey.values()] };
  }

  /** Open positions across the service and linked wallets, most recently changed first, with totals. */
  async openPositions(account: Account, reads: PortfolioLoaders): Promise<OpenPositionsView> {
    const open = (await this.allPositions(account, reads)).filter((p) => p.status === 'open');
    open.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || a.id.localeCompare(b.id));
    const { positions, marks } = await this.figures(account, reads);
    const s = summarize(positions);
    return {
      data: open,
      total: open.length,
      costBasis: num(s.costBasis),
      marketValue: num(s.marketValue),
      unrealizedPnl: num(s.unrealizedPnl),
      unmarkedPositions: s.unmarkedPositions,
      markStatus: markStatus(marks),
    };
  }

  async summary(account: Account, reads: PortfolioLoaders): Promise<SummaryView> {
    const { positions, marks } = await this.figures(account, reads);
    const s = summarize(positions);
    const bySource: SourcePnlView[] = s.bySource.map((b) => ({
      source: b.key as SourcePnlView['source'],
      ...bucketView(b),
      realizedPnl: num(b.realizedPnl),
      fees: num(b.fees),
    }));
    return {
      currency: 'USD',
      realizedPnl: num(s.realizedPnl),
      unrealizedPnl: num(s.unrealizedPnl),
      totalPnl: num(s.realizedPnl + s.unrealizedPnl),
      fees: num(s.fees),
      costBasis: num(s.costBasis),
      marketValue: num(s.marketValue),
      openPositions: s.openPositions,
      closedPositions: s.closedPositions,
      unmarkedPositions: s.unmarkedPositions,
      exposureByVenue: s.byVenue.map(exposureView),
      exposureByCategory: s.byCategory.map(exposureView),
      bySource,
      markStatus: markStatus(marks),
    };
  }

  async analytics(account: Account, reads: PortfolioLoaders): Promise<AnalyticsView> {
    const [{ positions, marks }, weeklyRank] = await Promise.all([
      this.figures(account, reads),
      this.history.weeklyRank(account.userId, account.mode),
    ]);
    const s = summarize(positions);
    return {
      categories: categoryFigures(positions).map((c) => ({
        category: c.category,
        closedPositions: c.closedPositions,
        wins: c.wins,
        losses: c.losses,
        winRate: c.winRateMillionths === null ? null : shareOf(c.winRateMillionths),
        realizedPnl: num(c.realizedPnl),
        openPositions: c.openPositions,
        exposure: num(c.exposure),
        exposureShare: shareOf(c.exposureShareMillionths),
      })),
      totalExposure: num(s.marketValue),
      exposureByVenue: s.byVenue.map(exposureView),
      weeklyRank,
      markStatus: markStatus(marks),
    };
  }

  /**
   * Ledger balance, the linked and provisioned wallets' on-chain value (left out,
   * with the reason, when the chain-balances upstream fails) and the open
   * positions' value: together the equity. The paper account: its paper
   * balance and paper positions (no wallets).
   */
  async balances(account: Account, reads: PortfolioLoaders): Promise<BalancesView> {
    const { userId } = account;
    if (account.mode === 'simulation') {
      const [{ positions }, paper] = await Promise.all([this.figures(account, reads), this.paper.balance(userId)]);
      const value = summarize(positions).marketValue;
      return {
        currency: 'USD',
        available: num(paper.available),
        held: num(paper.held),
        onchain: null,
        onchainError: null,
        positionsValue: num(value),
        equity: num(paper.available + paper.held + value),
      };
    }
    const [{ positions }, funds] = await Promise.all([
      this.figures(account, reads),
      // The aggregate reads the ledger too; the ledger alone answers when the chain upstream fails.
      this.wallets.aggregate(userId).then(
        (a) => ({
          available: fromNumber(a.available),
          held: fromNumber(a.held),
          onchain: fromNumber(a.onchain),
          error: null,
        }),
        async (err: unknown) => {
          this.logger?.warn({ err }, 'portfolio: on-chain balances unavailable');
          const b = await this.ledger.balance(userId);
          return { available: b.available, held: b.held, onchain: null, error: 'on-chain balances are unavailable' };
        },
      ),
    ]);
    const value = summarize(positions).marketValue;
    return {
      currency: 'USD',
      available: num(funds.available),
      held: num(funds.held),
      onchain: funds.onchain === null ? null : num(funds.onchain),
      onchainError: funds.error,
      positionsValue: num(value),
      equity: num(funds.available + funds.held + (funds.onchain ?? 0n) + value),
    };
  }
}
