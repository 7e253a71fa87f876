import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../../../db/generated/client';
import { AppError } from '../../../errors/app-error';

export interface UserLeaseOptions {
  /** How long a lease holds without renewal: a holder whose process died frees it after this. Default 30 s. */
  leaseMs?: number;
  /** How long a caller waits for the lease before a 409. Default 30 s. */
  waitMs?: number;
}

/** The lease row's key under its operation (one lease per user and operation). */
const LEASE_KEY = 'lease';
const FIRST_POLL_MS = 10;
const MAX_POLL_MS = 200;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One holder at a time per user for an operation, across every process that
 * shares the database (embedded or PostgreSQL alike): work that reads the
 * user's state, decides, and writes later (copytrade's caps, then the order)
 * runs under it whole.
 *
 * The lease is a row of `IdempotentRequest` under its own operation name —
 * that table is already the store of per-user, per-operation claims — holding
 * a random token: claimed by an insert, renewed while held, deleted when the
 * work ends; a row left unrenewed for `leaseMs` (its process died) is taken
 * over. No transaction or pooled connection is held across the work, which
 * may wait on a venue for as long as an order takes (an advisory lock would
 * hold both, and PGlite runs one transaction at a time). Callers in one
 * process queue in memory first, so only one of them polls the row.
 */
export class UserLease {
  private readonly queues = new Map<string, Promise<void>>();
  private readonly leaseMs: number;
  private readonly waitMs: number;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly operation: string,
    opts: UserLeaseOptions = {},
  ) {
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.waitMs = opts.waitMs ?? 30_000;
  }

  /** Runs `work` holding the user's lease; 409 when it is not free within `waitMs`. */
  async run<T>(userId: string, work: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.waitMs;
    const before = this.queues.get(userId);
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const tail = before ? before.then(() => mine) : mine;
    this.queues.set(userId, tail);
    try {
      if (before) await this.waitFor(before, deadline);
      const token = await this.acquire(userId, deadline);
      const renew = setInterval(
        () => void this.renew(userId, token).catch(() => undefined),
        Math.max(1, Math.floor(this.leaseMs / 3)),
      );
      renew.unref();
      try {
        return await work();
      } finally {
        clearInterval(renew);
        // A release that fails leaves a row nobody renews: it lapses after leaseMs.
        await this.release(userId, token).catch(() => undefined);
      }
    } finally {
      done();
      if (this.queues.get(userId) === tail) this.queues.delete(userId);
    }
  }

  private busy(): AppError {
    return AppError.conflict('another request of yours is still in progress; retry when it has ended');
  }

  private async waitFor(turn: Promise<void>, deadline: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.busy()), Math.max(0, deadline - Date.now()));
    });
    try {
      await Promise.race([turn, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Claims the row, or takes it over when its holder stopped renewing it; polls until `deadline`. */
  private async acquire(userId: string, deadline: number): Promise<string> {
    const token = randomUUID();
    for (let delay = FIRST_POLL_MS; ; delay = Math.min(delay * 2, MAX_POLL_MS)) {
      const now = Date.now();
      const claimed = await this.prisma.$queryRaw<unknown[]>`
        INSERT INTO "IdempotentRequest" ("userId", "operation", "key", "requestHash", "createdAt")
        VALUES (${userId}, ${this.operation}, ${LEASE_KEY}, ${token}, ${new Date(now)})
        ON CONFLICT ("userId", "operation", "key") DO UPDATE
          SET "requestHash" = EXCLUDED."requestHash", "createdAt" = EXCLUDED."createdAt"
          WHERE "IdempotentRequest"."createdAt" < ${new Date(now - this.leaseMs)}
        RETURNING 1`;
      if (claimed.length > 0) return token;
      if (Date.now() + delay > deadline) throw this.busy();
      await sleep(delay);
    }
  }

  private async renew(userId: string, token: string): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE "IdempotentRequest" SET "createdAt" = ${new Date()}
      WHERE "userId" = ${userId} AND "operation" = ${this.operation} AND "key" = ${LEASE_KEY} AND "requestHash"
      = ${token}`;
  }

  private async release(userId: string, token: string): Promise<void> {
    await this.prisma.$executeRaw`
      DELETE FROM "IdempotentRequest"
      WHERE "userId" = ${userId} AND "operation" = ${this.operation} AND "key" = ${LEASE_KEY} AND "requestHash"
      = ${token}`;
  }
}
