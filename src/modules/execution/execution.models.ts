import type { Fill, Order, Position } from '../../db/generated/client';
import type { OutcomeSide, Side, Venue } from '../../venues/venue.models';
import { MICROS_PER_UNIT, microsToNumber, mulMicros } from '../../money';
import { allInOf, type Quote } from '../routing/order-book.math';
import { orderFigures, type FillFigures, type OrderFigures } from '../portfolio/portfolio.models';
import { averagePrice } from '../portfolio/position.math';
import type { Chain } from '../wallets/wallets.limits';
import type { ExecutionEventKind, ExecutionMode, FailureCode, OrderKind, OrderSource } from './execution.limits';

/** An order as `/execute` takes it (the interface's body). */
export interface ExecuteRequest {
  /** The venue's market id, or `venue:marketId`. */
  marketId: string;
  venueMarketId?: string;
  side: Side;
  outcome: OutcomeSide;
  /** Contracts. */
  size: number;
  /** 0..1; alone it makes a limit order; refused (400) with `orderType` market. */
  limitPrice?: number;
  orderType?: OrderKind;
  mode?: ExecutionMode;
  venue?: Venue;
  coreId?: string;
  fundingSourceChain?: Chain;
  fundingSourceCurrency?: string;
  fundingAmountAtomic?: string;
  referrerId?: string;
  eventTitle?: string;
  marketTitle?: string;
  eventSlug?: string;
  category?: string;
}

/** The optional body of a position sell. */
export interface SellRequest {
  size?: number;
  orderType?: OrderKind;
  limitPrice?: number;
  mode?: ExecutionMode;
}

/**
 * Who runs an order: null for an anonymous simulation. `live` is set only
 * when the caller proved the wallet-auth token (or is trusted server code);
 * `walletToken` is forwarded to the execution service for venue_a.
 */
export interface ExecutionPrincipal {
  userId: string;
  live: boolean;
  walletToken?: string;
}

export interface RunOptions {
  /** The caller's `Idempotency-Key` (authenticated runs only). */
  idempotencyKey?: string;
  source?: OrderSource;
  positionId?: string;
  /** What a retry with the same key must repeat (default: the checked request). */
  idempotencyInput?: unknown;
  /**
   * A sell of a whole position: its exact size in micro-contracts, taken as is
   * when the request's size is that size (execution-service fills may leave a
   * venue_a position with more decimals than an order may name).
   */
  exactSizeMicros?: bigint;
}

/** An order as the stream shows it. */
export interface OrderView extends OrderFigures {
  coreId: string | null;
  orderType: OrderKind;
  mode: ExecutionMode;
  /** Buys: notional + fees (paid); sells: notional − fees (received). */
  total: number;
  /** False for an anonymous simulation (nothing stored). */
  persisted: boolean;
}

export interface FillView extends FillFigures {
  /** Contracts filled so far, this fill included. */
  filledSize: number;
}

export interface PositionSummaryView {
  id: string;
  status: 'open' | 'closed' | 'pending';
  size: number;
  /** Average entry price, fees excluded. */
  avgPrice: number | null;
  costBasis: number;
  /** Net of every fee paid. */
  realizedPnl: number;
  fees: number;
}

export interface BalanceView {
  available: number;
  held: number;
}

export interface ExecutionErrorView {
  code: FailureCode;
  message: string;
}

/** One message of the execution stream. */
export interface ExecutionEvent {
  /** `<orderId>:<seq>`: the SSE `id:`. */
  id: string;
  event: ExecutionEventKind;
  seq: number;
  orderId: string;
  at: Date;
  /** True when the stream replays the first outcome of an Idempotency-Key. */
  replayed: boolean;
  /** accepted, submitted, completed, failed, outcome_unknown. */
  order: OrderView | null;
  quote: Quote | null;
  fill: FillView | null;
  /** completed (authenticated): the position after the order. */
  position: PositionSummaryView | null;
  /** completed (authenticated): the USD balance after the order; outcome_unknown: with the hold. */
  balance: BalanceView | null;
  error: ExecutionErrorView | null;
}

/** An order row as the stream shows it. */
export function toOrderView(o: Order): OrderView {
  const total = allInOf(o.side, o.notionalMicros, o.feeMicros);
  return { ...orderFigures(o), coreId: o.coreEventId, total: microsToNumber(total), persisted: true };
}

/** A fill as the stream shows it: `filledSoFar` (micro-contracts) counts this fill. */
export function toFillView(seq: number, f: RecordedFill, filledSoFar: bigint): FillView {
  return {
    seq,
    price: microsToNumber(f.price),
    size: microsToNumber(f.size),
    fee: microsToNumber(f.fee),
    filledSize: microsToNumber(filledSoFar),
    filledAt: f.filledAt,
  };
}

/** How an order's fills add up (micro-units); `avg` is null before the first fill. */
export function fillTotals(fills: readonly RecordedFill[]) {
  let filled = 0n;
  let notional = 0n;
  let fees = 0n;
  for (const f of fills) {
    filled += f.size;
    notional += mulMicros(f.price, f.size);
    fees += f.fee;
  }
  return { filled, notional, fees, avg: filled > 0n ? (notional * MICROS_PER_UNIT) / filled : null };
}

/** The parts an event may carry; those it does not carry are null. */
export type ExecutionEventParts = Partial<
  Pick<ExecutionEvent, 'order' | 'quote' | 'fill' | 'position' | 'balance' | 'error'>
>;

/** The `seq`-th event of an order's stream. */
export function executionEvent(
  orderId: string,
  seq: number,
  event: ExecutionEventKind,
  at: Date,
  replayed: boolean,
  parts: ExecutionEventParts,
): ExecutionEvent {
  return {
    id: `${orderId}:${seq}`,
    event,
    seq,
    orderId,
    at,
    replayed,
    order: null,
    quote: null,
    fill: null,
    position: null,
    balance: null,
    error: null,
    ...parts,
  };
}

export function toPositionSummary(p: Position): PositionSummaryView {
  const avg = averagePrice({
    size: p.sizeMicros,
    costBasis: p.costBasisMicros,
    realizedPnl: p.realizedPnlMicros,
    fees: p.feesMicros,
  });
  return {
    id: p.id,
    status: p.status,
    size: microsToNumber(p.sizeMicros),
    avgPrice: avg === null ? null : microsToNumber(avg),
    costBasis: microsToNumber(p.costBasisMicros),
    realizedPnl: microsToNumber(p.realizedPnlMicros),
    fees: microsToNumber(p.feesMicros),
  };
}

/** Dates of a stored (JSON) event back as Dates, so a replay serializes like the original. */
export function reviveEvent(e: ExecutionEvent): ExecutionEvent {
  const d = (v: Date | string) => new Date(v);
  return {
    ...e,
    at: d(e.at),
    replayed: true,
    order: e.order && { ...e.order, createdAt: d(e.order.createdAt), updatedAt: d(e.order.updatedAt) },
    fill: e.fill && { ...e.fill, filledAt: d(e.fill.filledAt) },
  };
}

/**
 * The events of an order found by its Idempotency-Key whose first request did
 * not store its answer (its process stopped): `accepted`, its fills, and
 * `completed`, `failed` or (still open) `outcome_unknown` from the row as it stands.
 */
export function eventsFromOrder(o: Order & { fills: Fill[] }, now: Date): ExecutionEvent[] {
  const order = toOrderView(o);
  const events: ExecutionEvent[] = [];
  const push = (event: ExecutionEventKind, parts: ExecutionEventParts) =>
    events.push(executionEvent(o.id, events.length + 1, event, now, true, parts));
  push('accepted', { order });
  let filled = 0n;
  for (const f of o.fills) {
    filled += f.sizeMicros;
    const recorded = { price: f.priceMicros, size: f.sizeMicros, fee: f.feeMicros, filledAt: f.filledAt };
    push('fill', { fill: toFillView(f.seq, recorded, filled) });
  }
  if (['filled', 'partially_filled', 'cancelled'].includes(o.state)) push('completed', { order });
  else if (o.state === 'pending' || o.state === 'submitted') {
    // Still open: not failed (its hold is kept); the order ends when its outcome is known.
    const message =
      `the first request with this key did not finish; the order is ${o.state} until its outcome ` + `is known`;
    push('outcome_unknown', { order, error: { code: 'timeout', message } });
  } else {
    push('failed', {
      order,
      error: {
        code: o.state === 'rejected' ? 'venue_rejected' : 'upstream_error',
        message: o.failureReason ?? `the order was ${o.state}`,
      },
    });
  }
  return events;
}

/** What an order row is made of before anything happened to it. */
export interface OrderDraft {
  id: string;
  userId: string;
  venue: Venue;
  /** The catalog's market id (`venue:marketId`). */
  marketKey: string;
  venueMarketId: string;
  coreEventId: string | null;
  outcome: OutcomeSide;
  side: Side;
  orderType: OrderKind;
  mode: ExecutionMode;
  limitPriceMicros: bigint | null;
  requestedSizeMicros: bigint;
  source: OrderSource;
  positionId: string | null;
  idempotencyKey: string | null;
}

/** One fill in micro-units. */
export interface RecordedFill {
  price: bigint;
  size: bigint;
  fee: bigint;
  filledAt: Date;
}
