import { createHash } from 'node:crypto';
import { Prisma, type PrismaClient } from '../../db/generated/client';
import { ownerAlive } from '../../db/process-owner';
import { AppError } from '../../errors/app-error';

/** One request that may carry an `Idempotency-Key`. */
export interface IdempotentCall {
  userId: string;
  /** The operation (`funding.withdraw`): keys are scoped per user and operation. */
  operation: string;
  /** The header's value; undefined runs the work without idempotency. */
  key: string | undefined;
  /** The validated inputs: the same key with other inputs is refused. */
  input: unknown;
  /**
   * The caller's admission (a per-user rate limit): run only when the work
   * runs, never for a replay, so a retry of a request that went through is
   * answered whatever the limit. A refusal leaves the key unclaimed.
   */
  admit?: () => Promise<void>;
}

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * A claimed but unanswered key that names no owner process (claimed before owners were recorded)
 * is taken to be abandoned once it is this old.
 */
const ABANDONED_MS = 60_000;

/** The owner column of a key's row, for {@link ownerAlive}. */
const KEY_OWNER = Prisma.raw('"IdempotentRequest"."ownerId"');

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
}

function hashOf(input: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(input)))
    .digest('hex');
}

/** The JSON an answer is stored and replayed as (dates become ISO strings, which the API serializes alike). */
function toJson<T>(value: T): Prisma.InputJsonValue {
  return JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue;
}

/**
 * `Idempotency-Key` for money-moving requests. The first request with a key
 * runs and its answer is stored; a retry with the same key and the same inputs
 * gets that answer back; the same key with other inputs, or while the first is
 * still running, is a 409. "Still running" is the first request's process
 * being alive: a key claimed by a process that is gone (its `ProcessOwner`
 * lease lapsed, at most PROCESS_LEASE_MS after it died) is taken over by the
 * next retry.
 */
export class IdempotencyService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly now: () => number = Date.now,
    /** This process (see `ProcessOwner`); without it keys name no owner and wait {@link ABANDONED_MS}. */
    private readonly owner?: { readonly id: string },
  ) {}

  /** The key's format: 1..255 visible ASCII characters (400 otherwise). */
  static check(key: string | undefined): string | undefined {
    if (key === undefined) return undefined;
    if (!KEY.test(key)) throw AppError.badRequest('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
    return key;
  }

  /**
   * Database-only work: the claim, the work and the stored answer commit in one
   * transaction, so a key can never be claimed without its effects or the
   * reverse. A concurrent duplicate waits on the key's row, then replays.
   */
  async inTransaction<T>(call: IdempotentCall, work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
    const key = IdempotencyService.check(call.key);
    if (key === undefined) {
      await call.admit?.();
      return this.prisma.$transaction(work);
    }
    const hash = hashOf(call.input);
    return this.prisma.$transaction(async (tx) => {
      const claimed = await tx.$queryRaw<unknown[]>`
        INSERT INTO "IdempotentRequest" ("userId", "operation", "key", "requestHash")
        VALUES (${call.userId}, ${call.operation}, ${key}, ${hash})
        ON CONFLICT DO NOTHING RETURNING 1`;
      if (claimed.length === 0) return this.replay<T>(tx, call, key, hash);
      await call.admit?.(); // a refusal rolls the claim back
      const result = await work(tx);
      await tx.idempotentRequest.update({
        where: { userId_operation_key: { userId: call.userId, operation: call.operation, key } },
        data: { response: toJson(result) },
      });
      return result;
    });
  }

  /**
   * Work that calls an upstream (no transaction may stay open across it): claim
   * the key in this process's name, run, store the answer; a failure releases
   * the key so the client can retry. The upstream gets the same key, so a retry
   * after a crash is one operation there too. A key whose claiming process is
   * gone is taken over and its work runs again here (work that may already have
   * had effects must find them first: `ExecutionService` answers from the order
   * the key placed).
   */
  async run<T>(call: IdempotentCall, work: () => Promise<T>): Promise<T> {
    const key = IdempotencyService.check(call.key);
    if (key === undefined) {
      await call.admit?.();
      return work();
    }
    const hash = hashOf(call.input);
    const ownerId = this.owner?.id ?? null;
    const claimed = await this.prisma.$queryRaw<unknown[]>`
      INSERT INTO "IdempotentRequest" ("userId", "operation", "key", "requestHash", "ownerId")
      VALUES (${call.userId}, ${call.operation}, ${key}, ${hash}, ${ownerId})
      ON CONFLICT DO NOTHING RETURNING 1`;
    if (claimed.length === 0) {
      const taken = await this.takeOverAbandoned(call, key, hash);
      if (!taken) return this.replay<T>(this.prisma, call, key, hash);
    }
    // Only while this process still holds the key: one that took it over (this process's lease lapsed) owns it now.
    const mine = { userId: call.userId, operation: call.operation, key, ownerId };
    let result: T;
    try {
      await call.admit?.();
      result = await work();
    } catch (err) {
      await this.prisma.$executeRaw`
        DELETE FROM "IdempotentRequest"
        WHERE "userId" = ${call.userId} AND "operation" = ${call.operation} AND "key" = ${key} AND "response" IS NULL
          AND "ownerId" IS NOT DISTINCT FROM ${ownerId}`;
      throw err;
    }
    await this.prisma.idempotentRequest.updateMany({ where: mine, data: { response: toJson(result) } });
    return result;
  }

  /**
   * Takes over an unanswered claim on the key (same body) whose process is gone: its owner's lease
   * lapsed or its row was deleted (an owner-less claim: once {@link ABANDONED_MS} old). One of
   * several concurrent retries wins (the update locks the row; the others find it owned by a live process).
   */
  private async takeOverAbandoned(call: IdempotentCall, key: string, hash: string): Promise<boolean> {
    const before = new Date(this.now() - ABANDONED_MS);
    const me = this.owner?.id ?? null;
    // Never from this process itself: it is alive, whatever a late heartbeat makes its row say.
    const n = await this.prisma.$executeRaw`
      UPDATE "IdempotentRequest" SET "createdAt" = now(), "ownerId" = ${me}
      WHERE "userId" = ${call.userId} AND "operation" = ${call.operation} AND "key" = ${key}
        AND "requestHash" = ${hash} AND "response" IS NULL
        AND CASE WHEN "ownerId" IS NULL THEN "createdAt" < ${before}
          ELSE "ownerId" IS DISTINCT FROM ${me} AND NOT ${ownerAlive(KEY_OWNER)} END`;
    return n === 1;
  }

  private async replay<T>(
    db: Pick<PrismaClient, 'idempotentRequest'>,
    call: IdempotentCall,
    key: string,
    hash: string,
  ): Promise<T> {
    const row = await db.idempotentRequest.findUnique({
      where: { userId_operation_key: { userId: call.userId, operation: call.operation, key } },
    });
    // Gone between the insert and this read: the first request failed and released it.
    if (!row) throw AppError.conflict('a request with this Idempotency-Key failed just now; retry');
    if (row.requestHash !== hash)
      throw AppError.conflict('this Idempotency-Key was used with a different request body');
    if (row.response === null) throw AppError.conflict('a request with this Idempotency-Key is still in progress');
    return row.response as T;
  }
}
