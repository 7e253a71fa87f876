import { Prisma, type Fill, type Order, type Position, type PrismaClient } from '../../db/generated/client';
import type { RawSql, SqlClient } from '../../db/raw-sql';
import { ownerAlive } from '../../db/process-owner';
import type { Venue } from '../../venues/venue.models';
import {
  currencyOfMode,
  InsufficientFundsError,
  TRADING_FEE_KIND,
  type Balance,
  type FeeListener,
  type LedgerService,
} from '../ledger';
import type { PaperAccounts } from '../paper';
import { OversellError } from '../portfolio/position.math';
import { markPending, planPosition, reserveForSell, undoPending, writePosition } from './position-rows';
import type { OrderState } from '../portfolio/portfolio.limits';
import { EXECUTION_LEDGER_KINDS as K } from './execution.limits';
import { fillTotals, type OrderDraft, type RecordedFill } from './execution.models';
import { usdText, microsToNumber } from '../../money';
import type { OrderListener } from './order-listener';
import { fillRowsOf, insertFills, newBuyCtes, orderRowOf, writeNewBuy, writeNewOrder } from './order-rows';
import type { NewNotification, Notify, NotifyInStatement } from '../notifications';
import { sqlStateOf } from '../../errors/sql-state';

export { draftOf } from './order-rows';

export type Settled =
  | { ok: true; order: Order; position: Position; balance: Balance }
  | { ok: false; order: Order; code: 'insufficient_funds' | 'insufficient_position'; message: string };

/** An order that was to be moved to its end had already ended (another run of it got there first). */
export class OrderNotOpenError extends Error {
  constructor(readonly orderId: string) {
    super(`order ${orderId} is not open`);
    this.name = 'OrderNotOpenError';
  }
}

const usd = usdText;
/** An order's owner column, for {@link ownerAlive}. */
const ORDER_OWNER = Prisma.raw('o."ownerId"');
const contracts = (micros: bigint) => String(microsToNumber(micros));
/** SQLSTATE of `statement_requires` (migration `statement_requirements`): a one-statement write's condition failed. */
const REQUIREMENT_FAILED = 'PM001';

/** What a settled order's row says of its fills (see {@link TradeRecorder.settle}). */
type OrderFigures = Pick<
  Order,
  'state' | 'filledSizeMicros' | 'avgPriceMicros' | 'notionalMicros' | 'feeMicros' | 'failureReason'
> & { externalOrderId?: string };

/** A ledger batch's movements (see `LedgerService.postBatch`). */
type Movements = Parameters<LedgerService['postBatch']>[3];

/**
 * Writes orders and their effects. A filled order's order row, fills,
 * position, balance movements and fees commit in ONE transaction (or none of
 * them), and every fee listener runs inside it. Nothing here depends on a
 * client still listening. Each order row written, and each order's fills with the position
 * they moved, are told to the order listeners ({@link watch}) in the transaction that writes them.
 */
export class TradeRecorder {
  private readonly orderListeners: OrderListener[] = [];

  constructor(
    private readonly prisma: PrismaClient,
    private readonly ledger: LedgerService,
    private readonly feeListeners: Iterable<FeeListener>,
    private readonly paper?: PaperAccounts,
    /** This process: a live order names it while its runner follows it (see {@link unresolved}). */
    private readonly owner?: { readonly id: string },
    /** Transactions and single statements straight on the driver, for new simulated orders (see {@link settle}). */
    private readonly sql?: Pick<RawSql, 'transaction' | 'statement'>,
    /** Writes the notifications a settlement stores with its order (see {@link settle}'s `notes`). */
    private readonly notifications?: { notify: Notify; inStatement: NotifyInStatement },
  ) {}

  /**
   * Tells `listener` of every order row written and every order's fills (with the position they
   * moved), inside the writing transaction (the account streams announce them once it commits).
   */
  watch(listener: OrderListener): void {
    this.orderListeners.push(listener);
  }

  private orderChanged(db: object, order: Order): Order {
    for (const listener of this.orderListeners) listener.orderChanged(db, order);
    return order;
  }

  /**
   * A live order as accepted, before it reaches the venue, with `hold` (the
   * most a buy can cost) moved from available to held. A buy where the user
   * holds no open position shows a `pending` position until it ends (see
   * `markPending`); a sell holds its size of the position until it ends (see
   * `reserveForSell`). Throws {@link InsufficientFundsError} when the balance
   * is short, `PositionHeldError` when the position's free size is (nothing
   * written either way).
   */
  open(d: OrderDraft, hold: bigint): Promise<Order> {
    return this.prisma.$transaction(async (tx) => {
      if (d.side === 'buy') await markPending(tx, d);
      else await reserveForSell(tx, d);
      const order = await tx.order.create({ data: { ...orderRowOf(d), state: 'pending', ownerId: this.owner?.id } });
      this.orderChanged(tx, order);
      if (hold > 0n) {
        await this.ledger.post(tx, {
          userId: d.userId,
          kind: K.hold,
          available: -hold,
          held: hold,
          reference: `order:${d.id}`,
          idempotencyKey: `hold:${d.id}`,
        });
      }
      return order;
    });
  }

  /** The user's available USD balance, micro-units. */
  async balance(userId: string): Promise<bigint> {
    return (await this.ledger.balance(userId)).available;
  }

  /** The user's USD balance, available and held, micro-units. */
  funds(userId: string): Promise<Balance> {
    return this.ledger.balance(userId);
  }

  /** An order placed earlier with this Idempotency-Key, with its fills. */
  byIdempotencyKey(userId: string, idempotencyKey: string): Promise<(Order & { fills: Fill[] }) | null> {
    return this.prisma.order.findUnique({
      where: { userId_idempotencyKey: { userId, idempotencyKey } },
      include: { fills: { orderBy: { seq: 'asc' } } },
    });
  }

  /** The venue (or execution service) has the order. */
  async submitted(orderId: string, externalOrderId: string | null): Promise<Order> {
    const order = await this.prisma.order.update({
      where: { id: orderId },
      data: { state: 'submitted', externalOrderId },
    });
    return this.orderChanged(this.prisma, order);
  }

  /**
   * A live order whose outcome is not known (the execution service did not
   * report it in time or could not be asked; venue_b's answer to it was lost):
   * it stays `submitted` with its hold, `failureReason` says why, and it is
   * handed to the reconciler, which ends it later: its owner is cleared (no
   * runner follows it any more, whatever its process: see {@link unresolved}).
   * Null when the order already ended.
   */
  async awaitOutcome(orderId: string, externalOrderId: string | null, reason: string): Promise<Order | null> {
    const n = await this.prisma.order.updateMany({
      where: { id: orderId, state: { in: ['pending', 'submitted'] } },
      data: {
        state: 'submitted',
        failureReason: reason,
        ownerId: null,
        ...(externalOrderId !== null && { externalOrderId }),
      },
    });
    if (n.count !== 1) return null;
    return this.orderChanged(this.prisma, await this.prisma.order.findUniqueOrThrow({ where: { id: orderId } }));
  }

  /**
   * Live orders on `venues` whose outcome the reconciler must find out, oldest first, never those
   * in `running` (this process's runners follow them): venue_a orders handed to the reconciler
   * (`submitted` with a reason), open orders untouched since `staleBefore` that no runner follows
   * (handed to the reconciler by {@link awaitOutcome}, which clears the owner, or placed by a
   * process that is gone: its owner's lease lapsed), and open orders untouched since
   * `orphanBefore` whatever their process (a runner that lost them). A venue_b order handed over
   * waits `staleBefore` like one whose process died: a request the venue got late is in its books
   * by then, so "not there" means never placed.
   */
  async unresolved(opts: {
    limit: number;
    venues: readonly Venue[];
    staleBefore: Date;
    orphanBefore: Date;
    running: readonly string[];
  }): Promise<Order[]> {
    if (opts.venues.length === 0) return [];
    const rows = await this.prisma.$queryRaw<{ id: string }[]>`
      SELECT o."id" FROM "Order" o
      WHERE o."state" IN ('pending', 'submitted') AND o."mode" = 'live'
        AND o."venue"::text = ANY(${[...opts.venues]}::text[])
        AND NOT (o."id" = ANY(${[...opts.running]}::text[]))
        AND ((o."venue" = 'venue_a' AND o."state" = 'submitted' AND o."failureReason" IS NOT NULL)
          OR o."updatedAt" < ${opts.orphanBefore}
          OR (o."updatedAt" < ${opts.staleBefore} AND (o."ownerId" IS NULL OR NOT ${ownerAlive(ORDER_OWNER)})))
      ORDER BY o."updatedAt" ASC, o."id" ASC
      LIMIT ${opts.limit}`;
    if (rows.length === 0) return [];
    const orders = await this.prisma.order.findMany({ where: { id: { in: rows.map((r) => r.id) } } });
    const byId = new Map(orders.map((o) => [o.id, o]));
    return rows.flatMap((r) => byId.get(r.id) ?? []);
  }

  /**
   * Ends an order without fills (`cancelled`, `rejected`, `failed`); a live
   * order's hold is released and its pending position undone. `releaseKey`
   * clears the order's Idempotency-Key in the same transaction: a request that
   * failed before its stream opened leaves the key free for a retry that trades.
   */
  end(
    d: OrderDraft,
    existing: boolean,
    state: OrderState,
    reason: string | null,
    externalOrderId: string | null = null,
    opts: { releaseKey?: boolean } = {},
  ): Promise<Order> {
    return this.prisma.$transaction(async (tx) => {
      const data = {
        state,
        failureReason: reason,
        ...(externalOrderId !== null && { externalOrderId }),
        ...(opts.releaseKey && { idempotencyKey: null }),
      };
      const order = existing
        ? await this.finishOpen(tx, d.id, data)
        : await tx.order.create({ data: { ...orderRowOf(d), ...data } });
      this.orderChanged(tx, order);
      if (existing) {
        await this.releaseHold(tx, d);
        if (d.side === 'buy') await undoPending(tx, d);
      }
      return order;
    });
  }

  /**
   * Records a filled (or partly filled) order: the order, its fills, the
   * position, the notional and every fee as ledger movements, the fee
   * listeners, all in one transaction. A short balance (buys) or position
   * (sells) rolls it all back and records the order as rejected instead.
   * A simulated order settles against the user's paper account (paper
   * balance, paper positions) and tells no fee listener: it earns no rewards.
   * `notes` are the notifications stored with the order, in the same transaction (the fill's).
   *
   * A new simulated BUY is ONE statement and no transaction around it (its position, order, fills,
   * ledger movements and notifications: {@link settleNewPaperBuy}); only when its balance is short
   * does it run as the transaction that records the order rejected.
   */
  async settle(
    d: OrderDraft,
    existing: boolean,
    state: 'filled' | 'partially_filled',
    fills: readonly RecordedFill[],
    externalOrderId: string | null = null,
    /** The notifications stored with the order, last, from the order as written (the fill's). */
    notes?: (order: Order) => NewNotification[],
  ): Promise<Settled> {
    const t = fillTotals(fills);
    const data = {
      state,
      filledSizeMicros: t.filled,
      avgPriceMicros: t.avg,
      notionalMicros: t.notional,
      feeMicros: t.fees,
      failureReason: null,
      ...(externalOrderId !== null && { externalOrderId }),
    };
    const rows = fillRowsOf(d.id, fills);
    if (!existing && d.mode === 'simulation' && d.side === 'buy' && t.filled > 0n && this.sql) {
      const settled = await this.settleNewPaperBuy(this.sql, d, data, rows, t, fills, notes);
      if (settled) return settled;
    }
    const write = async (tx: SqlClient): Promise<Settled> => {
      let position: Position;
      let order: Order;
      if (!existing && d.side === 'buy' && t.filled > 0n) {
        // A new buy only adds to its position: the position's upsert locks and moves it, with the order, at once.
        const add = { size: t.filled, notional: t.notional, fees: t.fees };
        ({ position, order } = await writeNewBuy(tx, d, add, { ...orderRowOf(d), ...data, positionId: null }, rows));
      } else {
        // The position first: its row lock serializes concurrent orders on it; the order is written with its id.
        const move = await planPosition(tx, d, fills);
        const withPosition = { ...data, positionId: move.id };
        if (existing) {
          const model = modelClient(tx);
          position = await writePosition(model, move);
          order = await this.finishOpen(model, d.id, withPosition);
          await insertFills(tx, rows);
        } else {
          ({ position, order } = await writeNewOrder(tx, move, { ...orderRowOf(d), ...withPosition }, rows));
        }
      }
      this.filledOrder(tx, order, rows, position);
      const balance = await this.postMoney(tx, d, existing, t.notional, fills);
      if (notes) await this.notificationsOf().notify(notes(order), tx);
      return { ok: true as const, order, position, balance };
    };
    try {
      // A new simulated order (the paper account's: no hold to release, no fee listener) runs its
      // statements straight on the driver; every other settlement through Prisma's transaction.
      return !existing && d.mode === 'simulation' && this.sql
        ? await this.sql.transaction(write)
        : await this.prisma.$transaction(write);
    } catch (err) {
      if (err instanceof InsufficientFundsError) {
        const balance =
          d.mode === 'simulation' ? await this.paperAccounts().balance(d.userId) : await this.ledger.balance(d.userId);
        const message =
          `insufficient balance: the order costs ${usd(t.notional + t.fees)} (${usd(t.notional)} + ` +
          `${usd(t.fees)} fees), ${usd(balance.available)} available`;
        return {
          ok: false,
          order: await this.end(d, existing, 'rejected', message, externalOrderId),
          code: 'insufficient_funds',
          message,
        };
      }
      if (err instanceof OversellError) {
        const message =
          `insufficient position: selling ${contracts(err.selling)} contracts, ` + `${contracts(err.held)} held`;
        return {
          ok: false,
          order: await this.end(d, existing, 'rejected', message, externalOrderId),
          code: 'insufficient_position',
          message,
        };
      }
      throw err;
    }
  }

  /**
   * A new simulated buy in ONE statement, no BEGIN or COMMIT (PostgreSQL runs a statement as its
   * own transaction): the position's upsert, the order and its fills (`newBuyCtes`), the ledger
   * batch (`LedgerService.batchCtes`: the paper grant the first time, the notional, each fee) and
   * the notifications; `statement_requires` fails the whole statement, every CTE's writes with it,
   * when the balance did not move (short; or no balance row in the statement's snapshot while the
   * batch lowers it, one committed since included). Null then: the caller runs the transaction,
   * which tells the two apart and records a short order rejected. The listeners hear of the rows
   * as they would of the transaction's, once the statement succeeded.
   */
  private async settleNewPaperBuy(
    sql: Pick<RawSql, 'statement'>,
    d: OrderDraft,
    data: OrderFigures,
    rows: readonly Fill[],
    t: { filled: bigint; notional: bigint; fees: bigint },
    fills: readonly RecordedFill[],
    notes: ((order: Order) => NewNotification[]) | undefined,
  ): Promise<Settled | null> {
    const add = { size: t.filled, notional: t.notional, fees: t.fees };
    const { ctes, order: written } = newBuyCtes(d, add, { ...orderRowOf(d), ...data, positionId: null }, rows);
    const currency = currencyOfMode(d.mode);
    const money = this.ledger.batchCtes(d.userId, currency, this.movementsOf(d, undefined, t.notional, fills));
    const part = notes ? this.notificationsOf().inStatement(notes(written)) : null;
    try {
      return await sql.statement(async (db) => {
        const [row] = await db.$queryRaw<
          (Position & { balanceAvailable: bigint; balanceHeld: bigint; pushTo: [string, string][] | null })[]
        >`
          WITH ${ctes}, ${money}${part ? Prisma.sql`, ${part.ctes}` : Prisma.empty}
          SELECT p.*, moved."available" AS "balanceAvailable", moved."held" AS "balanceHeld",
          ${part ? part.pushTo : Prisma.sql`NULL::json`} AS "pushTo"
          FROM p LEFT JOIN moved ON true
          WHERE statement_requires(moved."available" IS NOT NULL, 'the balance did not move')`;
        const { balanceAvailable, balanceHeld, pushTo, ...position } = row;
        const order = { ...written, positionId: position.id };
        this.filledOrder(db, order, rows, position);
        const balance = this.ledger.announce(db, d.userId, currency, {
          available: balanceAvailable,
          held: balanceHeld,
        });
        part?.stored(db, pushTo);
        return { ok: true as const, order, position, balance };
      });
    } catch (err) {
      if (sqlStateOf(err) === REQUIREMENT_FAILED) return null;
      throw err;
    }
  }

  private notificationsOf(): { notify: Notify; inStatement: NotifyInStatement } {
    if (!this.notifications) throw new Error('storing notifications with an order needs the notifications');
    return this.notifications;
  }

  /** The order, then its fills and position, to the listeners (before the money: its balance comes last). */
  private filledOrder(tx: object, order: Order, fills: readonly Fill[], position: Position): void {
    this.orderChanged(tx, order);
    for (const listener of this.orderListeners) listener.filled(tx, order, fills, position);
  }

  private paperAccounts(): PaperAccounts {
    if (!this.paper) throw new Error('simulated orders need the paper accounts');
    return this.paper;
  }

  /** Moves an open (pending or submitted) order to its end, once. */
  private async finishOpen(
    tx: Prisma.TransactionClient,
    id: string,
    data: Prisma.OrderUpdateManyMutationInput,
  ): Promise<Order> {
    const n = await tx.order.updateMany({ where: { id, state: { in: ['pending', 'submitted'] } }, data });
    if (n.count !== 1) throw new OrderNotOpenError(id);
    return tx.order.findUniqueOrThrow({ where: { id } });
  }

  private async releaseHold(tx: Prisma.TransactionClient, d: OrderDraft): Promise<void> {
    const release = await this.holdRelease(tx, d);
    if (release) await this.ledger.post(tx, { userId: d.userId, ...release });
  }

  /** The movement that gives a live order's hold back (none when it holds nothing). */
  private async holdRelease(tx: Prisma.TransactionClient, d: OrderDraft) {
    const hold = await tx.ledgerEntry.findUnique({ where: { idempotencyKey: `hold:${d.id}` } });
    if (!hold || hold.heldDelta <= 0n) return undefined;
    return {
      kind: K.release,
      available: hold.heldDelta,
      held: -hold.heldDelta,
      reference: `order:${d.id}`,
      idempotencyKey: `release:${d.id}`,
    };
  }

  /**
   * A filled order's ledger movements: a live order's hold released (`release`), a paper account's
   * starting grant (the first time: its key is posted once), the notional, then each fee.
   */
  private movementsOf(
    d: OrderDraft,
    release: Movements[number] | undefined,
    notional: bigint,
    fills: readonly RecordedFill[],
  ): Movements {
    const reference = `order:${d.id}`;
    const grant = d.mode === 'simulation' ? this.paperAccounts().grant(d.userId) : undefined;
    const buy = d.side === 'buy';
    return [
      ...(release ? [release] : []),
      ...(grant ? [grant] : []),
      ...(notional > 0n
        ? [
            {
              kind: buy ? K.buy : K.sell,
              available: buy ? -notional : notional,
              held: 0n,
              reference,
              idempotencyKey: `trade:${d.id}`,
            },
          ]
        : []),
      ...feesOf(fills).map(({ seq, f }) => ({
        kind: TRADING_FEE_KIND,
        available: -f.fee,
        held: 0n,
        reference,
        idempotencyKey: `fee:${d.id}:${seq}`,
      })),
    ];
  }

  /**
   * A filled order's money, in the caller's transaction, in one ledger statement
   * (`postBatch`): a live order's hold released, a paper account's starting grant (the first
   * time), the notional, then each fee as its own movement; then the fee listeners. Returns the
   * balance after it.
   */
  private async postMoney(
    tx: SqlClient,
    d: OrderDraft,
    existing: boolean,
    notional: bigint,
    fills: readonly RecordedFill[],
  ): Promise<Balance> {
    const release = existing ? await this.holdRelease(modelClient(tx), d) : undefined;
    const { balance } = await this.ledger.postBatch(
      tx,
      d.userId,
      currencyOfMode(d.mode),
      this.movementsOf(d, release, notional, fills),
    );
    if (d.mode === 'simulation') return balance; // paper fees pay no one
    for (const { seq, f } of feesOf(fills)) {
      for (const listener of this.feeListeners) {
        await listener.onFeeCharged(modelClient(tx), {
          userId: d.userId,
          orderId: d.id,
          seq,
          venue: d.venue,
          feeMicros: f.fee,
          chargedAt: f.filledAt,
        });
      }
    }
    return balance;
  }
}

/** The fills that charged a fee, with their `seq` (from 1). */
function feesOf(fills: readonly RecordedFill[]): { seq: number; f: RecordedFill }[] {
  return [...fills.entries()].filter(([, f]) => f.fee > 0n).map(([i, f]) => ({ seq: i + 1, f }));
}

/**
 * `tx` as Prisma's transaction client, for the writes that use its models (a live order's
 * settlement runs in Prisma's transactions; only a new simulated order's runs straight on the
 * driver, and it never gets here).
 */
function modelClient(tx: SqlClient): Prisma.TransactionClient {
  if (!('order' in tx)) throw new Error("this write needs Prisma's transaction client");
  return tx as Prisma.TransactionClient;
}
