import type { ExecutionMode } from '../../execution/execution.limits';
import type { PrismaClient, Trade } from '../../../db/generated/client';
import { AppError } from '../../../errors/app-error';
import type { Venue } from '../../../venues/venue.models';
import type { EventsService } from '../../events/events.service';
import { sizeMicrosFor } from '../../execution/execute-request';
import type { ExecutionService } from '../../execution/execution.service';
import type { BalanceView, ExecutionPrincipal, OrderView, PositionSummaryView } from '../../execution/execution.models';
import { IdempotencyService } from '../../idempotency/idempotency.service';
import { MICROS_PER_UNIT, microsToNumber, toMicros, mulMicros } from '../../../money';
import type { MarketsService } from '../../markets/markets.service';
import type { MarketBooks } from '../../routing/market-books';
import { CENT, levelsFor } from '../../routing/order-book.math';
import { copyLimitMicros, deviation, utcMidnight, type CopytradeCaps, type CopytradeRequest } from './copytrade.limits';
import { toTraderTradeView, type TraderTradeView } from '../traders/leaderboard.service';
import { normalizeTraderId } from '../traders/trader-id';
import { UserLease } from './user-lease';

/** What a completed copy answers. */
export interface CopytradeResultView {
  /** The copy's order (`source` copytrade). */
  order: OrderView;
  /** The caller's position after the copy (null when nothing was stored). */
  position: PositionSummaryView | null;
  balance: BalanceView | null;
  /** The trader's trade that was copied. */
  copied: TraderTradeView;
  /** Best price of the traded side when the copy was checked. */
  bestPrice: number;
  /** The limit the copy was sent with: the trader's price ± the tolerated deviation. */
  limitPrice: number;
  /** True when an Idempotency-Key replayed the first outcome. */
  replayed: boolean;
}

export interface CopytradeDeps {
  prisma: PrismaClient;
  execution: Pick<ExecutionService, 'run'>;
  markets: Pick<MarketsService, 'marketsByIds'>;
  events: Pick<EventsService, 'get'>;
  books: Pick<MarketBooks, 'get'>;
  caps: CopytradeCaps;
  /** Wall clock of the per-day window (orders are stamped with it). */
  now?: () => number;
  /** Serializes one user's copies (default: a lease row in the database, shared by every process). */
  lease?: UserLease;
  /** The Idempotency-Key store (the platform's: keys name this process); default: one of its own. */
  idempotency?: IdempotencyService;
}

/** The Idempotency-Key operation of a copy (its stored answer), and the name of the per-user lease. */
const OPERATION = 'social.copytrade';
const LEASE_OPERATION = 'social.copytrade.lease';

/** Execution failures that are the caller's doing (400), not the venue's (502). */
const CALLER_FAILURES = new Set(['insufficient_funds', 'insufficient_position', 'nothing_to_execute']);

const num = microsToNumber;

/**
 * Mirrors a followed trader's public trade through the execution path, under
 * the configured risk caps. The copy is a limit order at the trader's fill
 * price moved by the tolerated deviation, so it never fills further away.
 */
export class CopytradeService {
  private readonly idempotency: IdempotencyService;
  private readonly lease: UserLease;

  constructor(private readonly deps: CopytradeDeps) {
    this.idempotency = deps.idempotency ?? new IdempotencyService(deps.prisma, deps.now);
    this.lease = deps.lease ?? new UserLease(deps.prisma, LEASE_OPERATION);
  }

  /**
   * Copies under the caps. With an Idempotency-Key the stored answer of the
   * key's first copy is looked up before anything is checked: a retry of a
   * copy that went through replays it (`replayed: true`) rather than being
   * checked again against a day total that now holds the first copy, or a
   * price that has moved. The key is matched against the caller's body, not
   * the limit and size computed from the book (another body: 409; the first
   * copy still running: 409). A copy refused before execution frees the key.
   *
   * A user's copies run one at a time (the lease), from the cap checks until
   * the order ended, so parallel copies cannot pass the caps together.
   */
  async copy(
    userId: string,
    req: CopytradeRequest,
    principal: ExecutionPrincipal,
    idempotencyKey?: string,
    admit?: () => Promise<void>,
  ): Promise<CopytradeResultView> {
    const key = IdempotencyService.check(idempotencyKey);
    const once = () => this.lease.run(userId, () => this.copyOnce(userId, req, principal, key));
    let ran = false;
    const answer = await this.idempotency.run<CopytradeResultView>(
      { userId, operation: OPERATION, key, input: req, admit },
      () => {
        ran = true;
        return once();
      },
    );
    return ran ? answer : { ...answer, replayed: true };
  }

  private async copyOnce(
    userId: string,
    req: CopytradeRequest,
    principal: ExecutionPrincipal,
    key: string | undefined,
  ): Promise<CopytradeResultView> {
    const { prisma, caps } = this.deps;
    const traderId = normalizeTraderId(req.venue, req.traderId);
    const follow = await prisma.follow.findUnique({
      where: { userId_venue_traderId: { userId, venue: req.venue, traderId } },
    });
    if (!follow) throw AppError.notFound(`followed trader ${req.venue}:${traderId}`);
    const trade = await this.tradeOf(req.venue, traderId, req.tradeId);
    const [market] = await this.deps.markets.marketsByIds([`${trade.venue}:${trade.venueMarketId}`]);
    if (!market) throw AppError.notFound(`market of trade ${req.tradeId}`);

    const event = await this.deps.events.get(market.eventId);
    checkCategory(event.category, caps);

    const book = await this.deps.books.get({ venue: trade.venue, marketId: trade.venueMarketId });
    const best = levelsFor(book, trade.side, trade.outcome)[0]?.price;
    if (best === undefined)
      throw AppError.badRequest(
        'maxPriceDeviation',
        `no ${trade.side === 'buy' ? 'ask' : 'bid'} in the book to compare with the trader's price`,
      );
    const traderPrice = toMicros(Number(trade.price.toString()));
    const allowed = allowedDeviation(req.maxPriceDeviation, caps.maxDeviationMicros);
    const off = deviation(best, traderPrice);
    if (off > allowed) {
      throw AppError.badRequest(
        'maxPriceDeviation',
        `the best price ${num(best)} is ${num(off)} from the trader's ${num(traderPrice)}; at most ` +
          `${num(allowed)} allowed`,
      );
    }
    const limit = tickLimit(trade.venue, trade.side, copyLimitMicros(trade.side, traderPrice, allowed));
    const sizeMicros =
      req.size !== undefined ? sizeMicrosFor(trade.venue, req.size) : sizeForAmount(trade.venue, req.amountUsd!, best);
    if (sizeMicros <= 0n) throw AppError.badRequest('amountUsd', `buys less than the smallest size at ${num(best)}`);

    const usd = mulMicros(limit, sizeMicros);
    if (usd > caps.maxTradeMicros)
      throw AppError.badRequest(
        'maxTradeUsd',
        `the copy is up to $${num(usd)}; at most $${num(caps.maxTradeMicros)} per copy`,
      );
    const mode = req.mode ?? 'simulation';
    const today = await this.usedToday(userId, mode);
    if (today + usd > caps.maxDailyMicros) {
      throw AppError.badRequest(
        'maxDailyUsd',
        `$${num(today)} copied today (UTC) plus up to $${num(usd)} exceeds $${num(caps.maxDailyMicros)} per day`,
      );
    }
    if (trade.side === 'buy') await this.checkOpenPositions(userId, trade, mode);

    const stream = await this.run(
      {
        marketId: `${trade.venue}:${trade.venueMarketId}`,
        venue: trade.venue,
        side: trade.side,
        outcome: trade.outcome,
        size: num(sizeMicros),
        orderType: 'limit',
        limitPrice: num(limit),
        mode,
        category: event.category,
        eventTitle: event.title,
      },
      principal,
      key,
      req,
    );
    const last = await stream.outcome;
    if (last.event === 'failed') {
      const message = last.error?.message ?? 'the copy failed';
      if (last.error && CALLER_FAILURES.has(last.error.code)) throw AppError.badRequest('size', message);
      throw AppError.upstream(`copytrade execution failed: ${message}`);
    }
    return {
      order: last.order!,
      position: last.position,
      balance: last.balance,
      copied: toTraderTradeView(trade),
      bestPrice: num(best),
      limitPrice: num(limit),
      replayed: stream.replayed,
    };
  }

  /**
   * Execution, with "not configured" reported as the upstream failure it is
   * for a copy (502). The key goes on to the order (one order per key), matched
   * against the caller's copy body like the copy's own answer.
   */
  private async run(
    request: Parameters<ExecutionService['run']>[0],
    principal: ExecutionPrincipal,
    key: string | undefined,
    body: CopytradeRequest,
  ) {
    try {
      return await this.deps.execution.run(request, principal, {
        source: 'copytrade',
        idempotencyKey: key,
        idempotencyInput: { copytrade: body },
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'unavailable') throw AppError.upstream(err.message);
      throw err;
    }
  }

  /** The trade by `venue:venueTradeId` or the venue's id; 404 unknown or someone else's. */
  private async tradeOf(venue: Venue, traderId: string, tradeId: string): Promise<Trade> {
    const prefixed = /^(venue_a|venue_b):(.+)$/.exec(tradeId);
    const trade =
      prefixed && prefixed[1] !== venue
        ? null
        : await this.deps.prisma.trade.findUnique({
            where: { venue_venueTradeId: { venue, venueTradeId: prefixed ? prefixed[2] : tradeId } },
          });
    if (!trade || trade.venueTraderId !== traderId)
      throw AppError.notFound(`trade ${tradeId} of trader ${venue}:${traderId}`);
    return trade;
  }

  /**
   * USD of the caller's copies in one account (live or paper) since 00:00 UTC: what ended orders exchanged,
   * and for orders still working the most they can (size × limit).
   */
  private async usedToday(userId: string, mode: ExecutionMode): Promise<bigint> {
    const now = this.deps.now ?? Date.now;
    const orders = await this.deps.prisma.order.findMany({
      where: { userId, mode, source: 'copytrade', createdAt: { gte: utcMidnight(now()) } },
      select: { state: true, notionalMicros: true, requestedSizeMicros: true, limitPriceMicros: true },
    });
    return orders.reduce(
      (sum, o) =>
        sum +
        (o.state === 'pending' || o.state === 'submitted'
          ? mulMicros(o.limitPriceMicros ?? MICROS_PER_UNIT, o.requestedSizeMicros)
          : o.notionalMicros),
      0n,
    );
  }

  /** A buy that would open a new position needs room under the open-positions cap (of the account it trades in). */
  private async checkOpenPositions(userId: string, trade: Trade, mode: ExecutionMode): Promise<void> {
    const max = this.deps.caps.maxOpenPositions;
    const [open, held] = await this.deps.prisma.$transaction([
      this.deps.prisma.position.count({ where: { userId, mode, status: 'open' } }),
      this.deps.prisma.position.count({
        where: {
          userId,
          mode,
          status: 'open',
          venue: trade.venue,
          venueMarketId: trade.venueMarketId,
          outcome: trade.outcome,
        },
      }),
    ]);
    if (held === 0 && open >= max)
      throw AppError.badRequest('maxOpenPositions', `${open} positions open; a copy may not open more than ${max}`);
  }
}

function checkCategory(category: string, caps: CopytradeCaps): void {
  const c = category.toLowerCase();
  if (caps.blockedCategories.includes(c))
    throw AppError.badRequest('category', `copying is blocked in category ${category}`);
  if (caps.allowedCategories.length > 0 && !caps.allowedCategories.includes(c)) {
    throw AppError.badRequest(
      'category',
      `copying is allowed only in ${caps.allowedCategories.join(', ')}; this event is ${category}`,
    );
  }
}

/** The caller's tolerance, never above the configured cap. */
function allowedDeviation(requested: number | undefined, cap: bigint): bigint {
  if (requested === undefined) return cap;
  const r = toMicros(requested);
  return r < cap ? r : cap;
}

/** venue_b prices in cents: the limit rounds toward the trader's price (buys down, sells up). */
function tickLimit(venue: Venue, side: 'buy' | 'sell', limit: bigint): bigint {
  if (venue !== 'venue_b') return limit;
  const down = (limit / CENT) * CENT;
  return side === 'buy' || down === limit ? down : down + CENT;
}

/** Contracts a USD amount buys at `price`, floored to the venue's precision (venue_b whole, venue_a hundredths). */
function sizeForAmount(venue: Venue, amountUsd: number, price: bigint): bigint {
  const step = venue === 'venue_b' ? MICROS_PER_UNIT : MICROS_PER_UNIT / 100n;
  const raw = (toMicros(amountUsd) * MICROS_PER_UNIT) / price;
  return (raw / step) * step;
}
