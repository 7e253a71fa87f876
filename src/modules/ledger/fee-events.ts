import type { Venue } from '../../venues/venue.models';
import type { LedgerDb } from './ledger.models';

/**
 * Trading fees are posted to the ledger as their own movement, with this kind,
 * reference `order:<orderId>` and idempotency key `fee:<orderId>:<seq>`: the
 * ledger is the record of every fee a user paid (rewards reconcile against it).
 */
export const TRADING_FEE_KIND = 'trading_fee';

/** A fee charged to a user for a fill of one of their orders. */
export interface FeeCharged {
  userId: string;
  orderId: string;
  /** The fill's sequence number within the order (unique with the order id). */
  seq: number;
  venue: Venue;
  feeMicros: bigint;
  chargedAt: Date;
}

/**
 * Told of every fee inside the transaction that charges it, so what it writes
 * (rewards accruals) commits or rolls back with the fill.
 */
export interface FeeListener {
  onFeeCharged(db: LedgerDb, fee: FeeCharged): Promise<void>;
}

/**
 * The fee listeners execution tells, filled by the modules that listen (rewards
 * adds its accrual when it is built): execution names no listener.
 */
export class FeeListeners implements Iterable<FeeListener> {
  private readonly listeners: FeeListener[] = [];

  add(listener: FeeListener): void {
    this.listeners.push(listener);
  }

  [Symbol.iterator](): Iterator<FeeListener> {
    return this.listeners[Symbol.iterator]();
  }
}
