import type { Prisma, PrismaClient } from '../../db/generated/client';

/** The ledger's currency of account: US dollars (USDC counts 1:1). */
export const LEDGER_CURRENCY = 'USD';

/** Paper dollars: what simulated orders trade with. Never withdrawable, never converted to {@link LEDGER_CURRENCY}. */
export const PAPER_CURRENCY = 'PAPER_USD';

/** The currency an order of this mode settles in. */
export function currencyOfMode(mode: 'live' | 'simulation'): string {
  return mode === 'simulation' ? PAPER_CURRENCY : LEDGER_CURRENCY;
}

/**
 * Kinds of movement. Funding and withdrawals use the first ones; execution and
 * rewards add theirs (any lowercase word is accepted).
 */
export const LEDGER_KINDS = {
  deposit: 'deposit',
  withdrawalHold: 'withdrawal_hold',
  withdrawalRelease: 'withdrawal_release',
  withdrawalSettle: 'withdrawal_settle',
} as const;

/** What a caller's transaction may hand the ledger: an interactive transaction client, or the client itself. */
export type LedgerDb = Prisma.TransactionClient | PrismaClient;

/** One movement: deltas of the available and held figures, in micro-units. */
export interface LedgerMovement {
  userId: string;
  /** Default {@link LEDGER_CURRENCY}. */
  currency?: string;
  kind: string;
  /** Added to the available balance (negative debits). */
  available: bigint;
  /** Added to the held balance (a hold moves available → held). */
  held: bigint;
  /** What the movement belongs to: `funding:<id>`, `withdrawal:<id>`, `order:<id>`… */
  reference: string;
  /** Unique over the whole ledger: a movement posted twice with one key applies once. */
  idempotencyKey: string;
}

export interface Balance {
  userId: string;
  currency: string;
  available: bigint;
  held: bigint;
}

/**
 * Told of each balance a movement moved, with its figures after it, inside the movement's
 * transaction (`db`): what it announces must wait for that transaction's commit.
 */
export interface BalanceListener {
  balanceMoved(db: object, balance: Balance): void;
}

/** A movement would take a balance below zero; nothing was written. */
export class InsufficientFundsError extends Error {
  constructor(
    readonly userId: string,
    readonly currency: string,
  ) {
    super(`insufficient ${currency} balance for ${userId}`);
    this.name = 'InsufficientFundsError';
  }
}

/** A stored entry as read back. */
export interface LedgerEntryView {
  id: bigint;
  userId: string;
  currency: string;
  kind: string;
  availableDelta: bigint;
  heldDelta: bigint;
  reference: string;
  idempotencyKey: string;
  createdAt: Date;
}
