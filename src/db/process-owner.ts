import { randomUUID } from 'node:crypto';
import { Prisma, type PrismaClient } from './generated/client';

/**
 * This OS process's part of every owner id it registers. Embedded (PGlite) admits one OS process
 * at a time, so at start every owner registered under another prefix belonged to a process that
 * is gone; several owners under one prefix are app instances sharing one process (tests).
 */
const INSTANCE = randomUUID();

/** How long after its lease lapsed an owner's row is deleted (kept a while for whoever looks). */
const FORGET_AFTER_MS = 60_000;

export interface ProcessOwnerOptions {
  /** How often the lease is renewed (ms). */
  heartbeatMs: number;
  /** How far each renewal moves the lease on (ms): the owner counts as gone once it lapsed. */
  leaseMs: number;
  /** PGlite: every owner of another OS process is gone at start (see {@link INSTANCE}). */
  embedded: boolean;
  /** A failed registration or renewal (the next beat tries again). */
  onError?: (err: unknown) => void;
}

/**
 * The SQL condition "the owner whose id is `ownerId` is alive now" (database time, so the
 * processes' clocks never matter). `ownerId` is a column reference or a value.
 */
export function ownerAlive(ownerId: Prisma.Sql | string): Prisma.Sql {
  return Prisma.sql`EXISTS (SELECT 1 FROM "ProcessOwner" po WHERE po."id" = ${ownerId} AND po."aliveUntil" > now())`;
}

/**
 * This server process among the processes sharing a database: a random id registered at start and
 * kept alive by a heartbeat (ONE statement per beat, whatever the process holds). Work the process
 * claims names this id (an in-flight Idempotency-Key, a withdrawal's dispatch, a live order); a
 * claim whose owner's lease lapsed, or whose row is gone, belongs to a process that died and is
 * taken over at once by the next one that needs it. With a beat every second and a 3 s lease, a
 * killed process counts as gone at most 3 s after it died. A clean stop deletes the row: its
 * claims are free at once.
 *
 * Written here rather than taken from a package: it is one upsert on a timer over the database the
 * claims live in, which is what makes "owner gone" one SQL condition ({@link ownerAlive}).
 */
export class ProcessOwner {
  /** This process's owner id. */
  readonly id = `${INSTANCE}:${randomUUID()}`;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly opts: ProcessOwnerOptions,
  ) {}

  /**
   * Registers this process (embedded: forgetting every other OS process's owners first) and starts
   * the heartbeat. A failure is reported, not thrown: the heartbeat keeps trying.
   */
  async start(): Promise<void> {
    if (this.timer || this.stopped) return;
    try {
      if (this.opts.embedded)
        await this.prisma.$executeRaw`DELETE FROM "ProcessOwner" WHERE "id" NOT LIKE ${`${INSTANCE}:%`}`;
      await this.beat();
    } catch (err) {
      this.opts.onError?.(err);
    }
    this.timer = setInterval(() => {
      // One beat at a time: a slow database delays the next rather than piling them up.
      if (this.beating) return;
      this.beating = this.beat()
        .catch((err: unknown) => this.opts.onError?.(err))
        .finally(() => (this.beating = undefined));
    }, this.opts.heartbeatMs);
    this.timer.unref();
  }

  /**
   * Renews the lease (registering the row again if it was deleted) and forgets owners whose lease
   * lapsed over a minute ago, in one statement.
   */
  private async beat(): Promise<void> {
    await this.prisma.$executeRaw`
      WITH forgotten AS (
        DELETE FROM "ProcessOwner"
        WHERE "aliveUntil" < now() - (${FORGET_AFTER_MS}::int * interval '1 millisecond') AND "id" <> ${this.id}
      )
      INSERT INTO "ProcessOwner" ("id", "startedAt", "aliveUntil")
      VALUES (${this.id}, now(), now() + (${this.opts.leaseMs}::int * interval '1 millisecond'))
      ON CONFLICT ("id") DO UPDATE SET "aliveUntil" = EXCLUDED."aliveUntil"`;
  }

  /** Stops the heartbeat and deletes this process's row, so what it still claims is free at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.beating;
    await this.prisma.$executeRaw`DELETE FROM "ProcessOwner" WHERE "id" = ${this.id}`.catch((err: unknown) =>
      this.opts.onError?.(err),
    );
  }
}
