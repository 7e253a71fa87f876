import type { Fill, Order, Position } from '../../db/generated/client';

/**
 * Told of each order row the recorder writes, inside the transaction that writes it (`db`: the
 * transaction client, or the client itself for a single statement): what it announces must wait
 * for that transaction's commit (`afterCommit`). Costs no statement: every row is the one the
 * recorder wrote or read back anyway. Execution names no listener; the modules that listen add
 * themselves (`TradeRecorder.watch`).
 */
export interface OrderListener {
  /** An order was created or changed state (or reason); `order` is the row as written. */
  orderChanged(db: object, order: Order): void;
  /** An order's fills were written, and the position they moved as it now stands. */
  filled(db: object, order: Order, fills: readonly Fill[], position: Position): void;
}
