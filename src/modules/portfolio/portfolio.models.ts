import type { Fill, Order, Position } from '../../db/generated/client';
import type { OutcomeSide, Side, Venue } from '../../venues/venue.models';
import { microsToNumber } from '../../money';
import { averagePrice } from './position.math';
import type { ExecutionMode } from '../execution/execution.limits';
import type { HoldingSource, MarkSource, OrderState, PositionStatus } from './portfolio.limits';
import { mulMicros } from '../../money/money';

/** Exact figures of a position, micro-units (contracts and USD). */
export interface PositionMicros {
  size: bigint;
  costBasis: bigint;
  realizedPnl: bigint;
  /** Null for on-chain positions (the indexer's trades carry no fee). */
  fees: bigint | null;
}

/**
 * A holding of one outcome of one venue market: a position the service keeps
 * for the caller's orders (`service`), or one rebuilt from a linked wallet's
 * on-chain trades (`wallet`). Amounts are JSON numbers; `micros` keeps them exact.
 */
export interface PositionView {
  id: string;
  userId: string;
  source: HoldingSource;
  /** The linked wallet holding it (wallet positions). */
  walletAddress: string | null;
  /** `live`, or `simulation`: a position of the paper account (wallet positions are live). */
  mode: ExecutionMode;
  venue: Venue;
  /** The venue's market id. */
  marketId: string;
  eventId: string | null;
  outcome: OutcomeSide;
  status: PositionStatus;
  size: number;
  avgPrice: number | null;
  costBasis: number;
  realizedPnl: number;
  fees: number | null;
  openedAt: Date | null;
  closedAt: Date | null;
  updatedAt: Date;
  micros: PositionMicros;
}

/**
 * What every view of an order row shows: the portfolio's order list (`OrderView`) and the
 * execution stream (execution's `OrderView`), each adding its own fields.
 */
export interface OrderFigures {
  id: string;
  state: OrderState;
  venue: Venue;
  /** The venue's market id. */
  marketId: string;
  outcome: OutcomeSide;
  side: Side;
  orderType: 'market' | 'limit';
  mode: 'simulation' | 'live';
  limitPrice: number | null;
  requestedSize: number;
  filledSize: number;
  avgPrice: number | null;
  /** Sum of fill notionals (price × size), before fees. */
  notional: number;
  fees: number;
  failureReason: string | null;
  externalOrderId: string | null;
  positionId: string | null;
  /** `execute`, `position_sell` or `copytrade`. */
  source: string;
  createdAt: Date;
  updatedAt: Date;
}

/** An order of the caller's list. */
export interface OrderView extends OrderFigures {
  userId: string;
  eventId: string | null;
}

/** What every view of a fill shows: the portfolio's order fills and the execution stream's. */
export interface FillFigures {
  seq: number;
  price: number;
  size: number;
  fee: number;
  filledAt: Date;
}

export interface FillView extends FillFigures {
  id: string;
  orderId: string;
  /** price × size, before the fee. */
  notional: number;
}

/** One trade of the caller's history: a fill of a service order, or an on-chain fill of a linked wallet. */
export interface TradeView {
  id: string;
  source: HoldingSource;
  venue: Venue;
  marketId: string;
  /** The core event (service orders record it; on-chain fills take the catalog's). */
  eventId: string | null;
  /** The catalog's title of the market, when it holds it. */
  marketTitle: string | null;
  outcome: OutcomeSide;
  side: Side;
  price: number;
  size: number;
  notional: number;
  /** Null for on-chain trades. */
  fee: number | null;
  filledAt: Date;
  orderId: string | null;
  mode: 'simulation' | 'live' | null;
  walletAddress: string | null;
}

/** The mark of a position's outcome. */
export interface MarkView {
  /** Outcome price, 0..1; null when no price is known. */
  price: number | null;
  /** The market's YES price the outcome price derives from. */
  yesPrice: number | null;
  source: MarkSource;
  asOf: Date | null;
  reason: string | null;
}

/** Whether a venue's marks are live, for the venues the caller holds positions on. */
export interface VenueMarkStatusView {
  venue: Venue;
  live: boolean;
  markets: number;
  lastKnown: number;
  unmarked: number;
  reason: string | null;
}

export type { OffsetPage } from '../../db/offset-page';

const num = microsToNumber;
const numOrNull = (v: bigint | null) => (v === null ? null : num(v));

export function positionView(
  p: PositionMicros & Omit<PositionView, 'size' | 'avgPrice' | 'costBasis' | 'realizedPnl' | 'fees' | 'micros'>,
): PositionView {
  const { size, costBasis, realizedPnl, fees, ...rest } = p;
  const avg = averagePrice({ size, costBasis, realizedPnl, fees: fees ?? 0n });
  return {
    ...rest,
    size: num(size),
    avgPrice: numOrNull(avg),
    costBasis: num(costBasis),
    realizedPnl: num(realizedPnl),
    fees: numOrNull(fees),
    micros: { size, costBasis, realizedPnl, fees },
  };
}

export function toPositionView(p: Position): PositionView {
  return positionView({
    id: p.id,
    userId: p.userId,
    source: 'service',
    walletAddress: null,
    mode: p.mode,
    venue: p.venue,
    marketId: p.venueMarketId,
    eventId: p.coreEventId,
    outcome: p.outcome,
    status: p.status,
    size: p.sizeMicros,
    costBasis: p.costBasisMicros,
    realizedPnl: p.realizedPnlMicros,
    fees: p.feesMicros,
    openedAt: p.openedAt,
    closedAt: p.closedAt,
    updatedAt: p.updatedAt,
  });
}

/** The figures of an order row, as every view of it shows them. */
export function orderFigures(o: Order): OrderFigures {
  return {
    id: o.id,
    state: o.state,
    venue: o.venue,
    marketId: o.venueMarketId,
    outcome: o.outcome,
    side: o.side,
    orderType: o.orderType,
    mode: o.mode,
    limitPrice: numOrNull(o.limitPriceMicros),
    requestedSize: num(o.requestedSizeMicros),
    filledSize: num(o.filledSizeMicros),
    avgPrice: numOrNull(o.avgPriceMicros),
    notional: num(o.notionalMicros),
    fees: num(o.feeMicros),
    failureReason: o.failureReason,
    externalOrderId: o.externalOrderId,
    positionId: o.positionId,
    source: o.source,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}

export function toOrderView(o: Order): OrderView {
  return { ...orderFigures(o), userId: o.userId, eventId: o.coreEventId };
}

export function toFillView(f: Fill): FillView {
  return {
    id: f.id,
    orderId: f.orderId,
    seq: f.seq,
    price: num(f.priceMicros),
    size: num(f.sizeMicros),
    notional: num(mulMicros(f.priceMicros, f.sizeMicros)),
    fee: num(f.feeMicros),
    filledAt: f.filledAt,
  };
}
