import { randomUUID } from 'node:crypto';
import type { Fill, Order, Position } from '../../db/generated/client';
import { LEDGER_CURRENCY, PAPER_CURRENCY, type Balance } from '../ledger/ledger.models';
import type { ExecutionMode } from '../execution/execution.limits';
import type { BalanceView } from '../execution/execution.models';
import {
  positionView,
  toFillView,
  toOrderView,
  toPositionView,
  type FillView,
  type OrderView,
  type PositionView,
} from '../portfolio/portfolio.models';
import type { OutcomeSide, Side, Venue } from '../../venues/venue.models';
import { microsToNumber } from '../../money';

/**
 * What the account streams publish: each user's own order, fill, position and balance changes on
 * the user's topic ({@link accountTopic}), once the transaction that made them has committed,
 * in commit order. Payloads are JSON (they cross processes over Redis): dates as ISO text,
 * exact micro-unit figures as decimal text.
 */

/** The family of the per-user topics: `account#<userId>` (the lag metric is labelled by family). */
export const ACCOUNT_TOPIC = 'account';

/** The topic of one user's {@link AccountEvent}s. */
export function accountTopic(userId: string): string {
  return `${ACCOUNT_TOPIC}#${userId}`;
}

export const ACCOUNT_UPDATE_KINDS = ['order', 'fill', 'position', 'balance'] as const;
export type AccountUpdateKind = (typeof ACCOUNT_UPDATE_KINDS)[number];

type Iso<T, K extends keyof T> = Omit<T, K> & { [P in K]: null extends T[P] ? string | null : string };

/** An order as published: the portfolio's `Order` view. */
export type OrderJson = Iso<OrderView, 'createdAt' | 'updatedAt'>;
/** A fill as published: the portfolio's `OrderFill` view with its order's market and direction. */
export type FillJson = Iso<AccountFillView, 'filledAt'>;
/** A position as published: the portfolio's `Position` view, its exact figures as decimal text. */
export type PositionJson = Iso<Omit<PositionView, 'micros'>, 'openedAt' | 'closedAt' | 'updatedAt'> & {
  micros: { size: string; costBasis: string; realizedPnl: string; fees: string | null };
};

/** A fill of one of the user's orders, with what the fill alone does not say. */
export interface AccountFillView extends FillView {
  venue: Venue;
  /** The venue's market id. */
  marketId: string;
  outcome: OutcomeSide;
  side: Side;
}

/** One change of a user's account as published on the user's topic. */
export interface AccountEvent {
  /**
   * Unique per change: `order:<id>:<state>:<updatedAt ms>`, `fill:<fillId>`,
   * `position:<id>:<updatedAt ms>`, `balance:<mode>:<uuid>`.
   */
  id: string;
  kind: AccountUpdateKind;
  userId: string;
  mode: ExecutionMode;
  /** When it was announced: just after its commit (ISO 8601). */
  at: string;
  order?: OrderJson;
  fill?: FillJson;
  position?: PositionJson;
  /** The balance of the account `mode` names after the change, USD. */
  balance?: BalanceView;
}

/** An event before its commit stamps `at`. */
export type PendingAccountEvent = Omit<AccountEvent, 'at'>;

/** An account update as the GraphQL type resolves it. */
export interface AccountUpdateView {
  id: string;
  kind: AccountUpdateKind;
  mode: ExecutionMode;
  at: Date;
  order: OrderView | null;
  fill: AccountFillView | null;
  position: PositionView | null;
  balance: BalanceView | null;
}

/** The account a ledger currency is (none: a currency no account stream shows). */
export function modeOfCurrency(currency: string): ExecutionMode | undefined {
  if (currency === LEDGER_CURRENCY) return 'live';
  if (currency === PAPER_CURRENCY) return 'simulation';
  return undefined;
}

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d === null ? null : d.toISOString());

export function orderEvent(o: Order): PendingAccountEvent {
  const v = toOrderView(o);
  return {
    id: `order:${o.id}:${o.state}:${o.updatedAt.getTime()}`,
    kind: 'order',
    userId: o.userId,
    mode: o.mode,
    order: { ...v, createdAt: iso(v.createdAt), updatedAt: iso(v.updatedAt) },
  };
}

export function fillEvent(o: Order, f: Fill): PendingAccountEvent {
  const v = toFillView(f);
  return {
    id: `fill:${f.id}`,
    kind: 'fill',
    userId: o.userId,
    mode: o.mode,
    fill: {
      ...v,
      filledAt: iso(v.filledAt),
      venue: o.venue,
      marketId: o.venueMarketId,
      outcome: o.outcome,
      side: o.side,
    },
  };
}

export function positionEvent(p: Position): PendingAccountEvent {
  const v = toPositionView(p);
  const { micros } = v;
  return {
    id: `position:${p.id}:${p.updatedAt.getTime()}`,
    kind: 'position',
    userId: p.userId,
    mode: p.mode,
    position: {
      ...v,
      openedAt: isoOrNull(v.openedAt),
      closedAt: isoOrNull(v.closedAt),
      updatedAt: iso(v.updatedAt),
      // The view's figures are derived again when revived (positionView), from the exact ones.
      micros: {
        size: String(micros.size),
        costBasis: String(micros.costBasis),
        realizedPnl: String(micros.realizedPnl),
        fees: micros.fees === null ? null : String(micros.fees),
      },
    },
  };
}

export function balanceEvent(b: Balance, mode: ExecutionMode): PendingAccountEvent {
  return {
    id: `balance:${mode}:${randomUUID()}`,
    kind: 'balance',
    userId: b.userId,
    mode,
    balance: { available: microsToNumber(b.available), held: microsToNumber(b.held) },
  };
}

const date = (s: string) => new Date(s);
const dateOrNull = (s: string | null) => (s === null ? null : new Date(s));

/** The view of a published event (its dates and exact figures back in their types). */
export function reviveAccountEvent(e: AccountEvent): AccountUpdateView {
  let position: PositionView | null = null;
  if (e.position) {
    const { micros, size: _s, avgPrice: _a, costBasis: _c, realizedPnl: _r, fees: _f, ...rest } = e.position;
    position = positionView({
      ...rest,
      openedAt: dateOrNull(rest.openedAt),
      closedAt: dateOrNull(rest.closedAt),
      updatedAt: date(rest.updatedAt),
      size: BigInt(micros.size),
      costBasis: BigInt(micros.costBasis),
      realizedPnl: BigInt(micros.realizedPnl),
      fees: micros.fees === null ? null : BigInt(micros.fees),
    });
  }
  return {
    id: e.id,
    kind: e.kind,
    mode: e.mode,
    at: date(e.at),
    order: e.order ? { ...e.order, createdAt: date(e.order.createdAt), updatedAt: date(e.order.updatedAt) } : null,
    fill: e.fill ? { ...e.fill, filledAt: date(e.fill.filledAt) } : null,
    position,
    balance: e.balance ?? null,
  };
}
