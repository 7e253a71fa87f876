import type { Fill, Order, Position } from '../../db/generated/client';
import { afterCommit } from '../../db/commit-hooks';
import type { Logger } from '../../http/logger';
import type { PubSub } from '../../infra';
import type { Balance, BalanceListener } from '../ledger/ledger.models';
import type { OrderListener } from '../execution/order-listener';
import {
  accountTopic,
  balanceEvent,
  fillEvent,
  modeOfCurrency,
  orderEvent,
  positionEvent,
  type AccountEvent,
  type PendingAccountEvent,
} from './account-streams.models';

/**
 * Announces account changes on their users' topics once their transaction commits: told of each
 * order row, fill, position and balance the recorder and the ledger write (inside the writing
 * transaction), it keeps them per transaction and publishes them after the commit, in the order
 * they were written, one `publishMany` per user (over Redis: one round trip, all or none). A
 * transaction that rolls back announces nothing. Delivery is the pub/sub's: at most once, to the
 * subscribers of any process; a publish that fails is logged (the change itself is committed and
 * shows in the portfolio reads).
 */
export class AccountAnnouncer implements OrderListener, BalanceListener {
  private readonly pending = new WeakMap<object, PendingAccountEvent[]>();

  constructor(
    private readonly pubsub: PubSub,
    private readonly logger?: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  orderChanged(db: object, order: Order): void {
    this.add(db, orderEvent(order));
  }

  filled(db: object, order: Order, fills: readonly Fill[], position: Position): void {
    for (const f of fills) this.add(db, fillEvent(order, f));
    this.add(db, positionEvent(position));
  }

  balanceMoved(db: object, balance: Balance): void {
    const mode = modeOfCurrency(balance.currency);
    if (mode !== undefined) this.add(db, balanceEvent(balance, mode));
  }

  private add(db: object, event: PendingAccountEvent): void {
    const batch = this.pending.get(db);
    if (batch) {
      batch.push(event);
      return;
    }
    const events = [event];
    this.pending.set(db, events);
    const seen = afterCommit(db, () => {
      this.pending.delete(db);
      void this.publish(events);
    });
    // A transaction whose commit cannot be seen (a client without commit hooks): nothing is announced.
    if (!seen) this.pending.delete(db);
  }

  /** One transaction's events, stamped with the commit time, each user's on their topic in order. */
  private async publish(events: readonly PendingAccountEvent[]): Promise<void> {
    const at = new Date(this.now()).toISOString();
    const byUser = new Map<string, AccountEvent[]>();
    for (const e of events) {
      const list = byUser.get(e.userId) ?? [];
      list.push({ ...e, at });
      byUser.set(e.userId, list);
    }
    await Promise.all(
      [...byUser].map(([userId, list]) =>
        this.pubsub.publishMany(accountTopic(userId), list).catch((err: unknown) => {
          this.logger?.warn({ err, userId, events: list.length }, 'announcing account changes failed');
        }),
      ),
    );
  }
}
