import { Prisma, type PrismaClient } from '../../db/generated/client';

/** One pending count: requests of an owner to an endpoint on a UTC day (`YYYY-MM-DD`). */
export interface UsageCount {
  owner: string;
  endpoint: string;
  day: string;
  requests: number;
}

export interface UsageRecorderOptions {
  /** How often buffered counts are written (ms). */
  flushIntervalMs: number;
  now?: () => number;
  /** Receives the latest use of each key seen since the last flush. */
  onLastUsed?: (lastUsed: ReadonlyMap<string, Date>) => Promise<void>;
  onError?: (err: unknown) => void;
}

const SEP = '\u0000';

/** The UTC day of a timestamp, `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Counts requests in memory and adds them to the database in one statement per
 * flush (an upsert that increments), so the request path never writes. A
 * failed flush puts its counts back for the next one; `stop()` flushes what is
 * left, so a graceful shutdown loses nothing.
 */
export class UsageRecorder {
  private counts = new Map<string, number>();
  private lastUsed = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private readonly now: () => number;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly opts: UsageRecorderOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  /** Counts one request. */
  record(owner: string, keyId: string, endpoint: string): void {
    const at = this.now();
    const key = [owner, endpoint, utcDay(at)].join(SEP);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.lastUsed.set(keyId, at);
  }

  /** This process's counts not yet flushed, for one owner. */
  pending(owner: string): UsageCount[] {
    const out: UsageCount[] = [];
    for (const [key, requests] of this.counts) {
      const [o, endpoint, day] = key.split(SEP) as [string, string, string];
      if (o === owner) out.push({ owner: o, endpoint, day, requests });
    }
    return out;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.flush().catch((err: unknown) => this.opts.onError?.(err));
    }, this.opts.flushIntervalMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is buffered. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Writes the buffered counts; flushes run one at a time. */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.flushOnce());
    // A failure is reported to this caller; the chain carries on for the next flush.
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async flushOnce(): Promise<void> {
    const counts = this.counts;
    const lastUsed = this.lastUsed;
    if (counts.size === 0 && lastUsed.size === 0) return;
    this.counts = new Map();
    this.lastUsed = new Map();
    try {
      if (counts.size > 0) await this.prisma.$executeRaw(upsertCounts(counts));
    } catch (err) {
      this.restore(counts, lastUsed);
      throw err;
    }
    if (lastUsed.size > 0 && this.opts.onLastUsed) {
      try {
        await this.opts.onLastUsed(new Map([...lastUsed].map(([id, ms]) => [id, new Date(ms)])));
      } catch (err) {
        this.restore(new Map(), lastUsed);
        throw err;
      }
    }
  }

  private restore(counts: Map<string, number>, lastUsed: Map<string, number>): void {
    for (const [key, n] of counts) this.counts.set(key, (this.counts.get(key) ?? 0) + n);
    for (const [id, at] of lastUsed) this.lastUsed.set(id, Math.max(at, this.lastUsed.get(id) ?? 0));
  }
}

/** One INSERT … ON CONFLICT that adds every buffered count to its row. */
function upsertCounts(counts: ReadonlyMap<string, number>): Prisma.Sql {
  const rows = [...counts].map(([key, n]) => {
    const [owner, endpoint, day] = key.split(SEP) as [string, string, string];
    return Prisma.sql`(${owner}, ${endpoint}, ${day}::date, ${n}::bigint)`;
  });
  return Prisma.sql`INSERT INTO "ApiUsageDaily" ("owner", "endpoint", "day", "requests") VALUES ${Prisma.join(rows)}
    ON CONFLICT ("owner", "endpoint", "day") DO UPDATE SET "requests" = "ApiUsageDaily"."requests" +
    EXCLUDED."requests"`;
}
