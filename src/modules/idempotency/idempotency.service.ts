import { createHash } from 'node:crypto';
import type { Prisma, PrismaClient } from '../../db/generated/client';
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

/** A claimed but unanswered key older than this is taken to be abandoned (its process died). */
const ABANDONED_MS = 60_000;

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
 * still running, is a 409.
 */
export class IdempotencyService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly now: () => number = Date.now,
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
   * the key, run, store the answer; a failure releases the key so the client
   * can retry. The upstream gets the same key, so a retry after a crash is one
   * operation there too.
   */
  async run<T>(call: IdempotentCall, work: () => Promise<T>): Promise<T> {
    const key = IdempotencyService.check(call.key);
    if (key === undefined) {
      await call.admit?.();
      return work();
    }
    const hash = hashOf(call.input);
    const where = { userId_operation_key: { userId: call.userId, operation: call.operation, key } };
    const claimed = await this.prisma.$queryRaw<unknown[]>`
      INSERT INTO "IdempotentRequest" ("userId", "operation", "key", "requestHash")
      VALUES (${call.userId}, ${call.operation}, ${key}, ${hash})
      ON CONFLICT DO NOTHING RETURNING 1`;
    if (claimed.length === 0) {
      const taken = await this.takeOverAbandoned(call, key, hash);
      if (!taken) return this.replay<T>(this.prisma, call, key, hash);
    }
    let result: T;
    try {
      await call.admit?.();
      result = await work();
    } catch (err) {
      await this.prisma.$executeRaw`
        DELETE FROM "IdempotentRequest"
        WHERE "userId" = ${call.userId} AND "operation" = ${call.operation} AND "key" = ${key} AND "response" IS NULL`;
      throw err;
    }
    await this.prisma.idempotentRequest.update({ where, data: { response: toJson(result) } });
    return result;
  }

  private async takeOverAbandoned(call: IdempotentCall, key: string, hash: string): Promise<boolean> {
    const before = new Date(this.now() - ABANDONED_MS);
    const n = await this.prisma.$executeRaw`
      UPDATE "IdempotentRequest" SET "createdAt" = now()
      WHERE "userId" = ${call.userId} AND "operation" = ${call.operation} AND "key" = ${key}
        AND "requestHash" = ${hash} AND "response" IS NULL AND "createdAt" < ${before}`;
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
