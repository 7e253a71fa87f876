import type { PrismaClient } from '../../db/generated/client';
import type { RawSql } from '../../db/raw-sql';
import { AppError } from '../../errors/app-error';
import type { Logger } from '../../http/logger';
import type { TradeIngestService } from '../ingestion';
import type { PublicTrade } from '../../venues/venue.models';
import { PeriodicTask } from '../../infra';
import { AnnouncementOutbox } from './announcement-outbox';
import { insertTrades } from './fill-store';
import { checkFill, fillToTrade, readFill } from './order-filled';
import type { OutcomeTokenIndex } from './outcome-tokens';
import { MAX_FILL_BATCH } from './webhooks.limits';

/**
 * Stored trades whose announcement (derived stats, publication) may lag behind
 * the acknowledgements; beyond it a delivery waits for the backlog, so a slow
 * consumer slows the indexer down instead of growing memory.
 */
export const MAX_ANNOUNCE_BACKLOG = 20_000;

export interface FillBatchAck {
  /** Records in the delivery. */
  received: number;
  /** Records that wrote nothing: already stored (a redelivery), repeated in the batch, or on an unknown asset. */
  skipped: number;
}

/** How long the process that stored (or claimed) an announcement owns it before any process's sweep may run it. */
export const ANNOUNCE_LEASE_MS = 120_000;
/** How often the sweep looks for announcements left unfinished (a failed step, a process that died). */
export const ANNOUNCE_SWEEP_MS = 30_000;
/** Rows one sweep claims at a time. */
const SWEEP_BATCH = 20;

export interface IndexerWebhookOptions {
  /** Default {@link ANNOUNCE_LEASE_MS}. */
  leaseMs?: number;
}

/**
 * The on-chain indexer's webhook for venue_a: batches of OrderFilled records
 * for tracked wallets become public trades. The whole batch is checked before
 * anything is written (one bad record → 400, nothing stored), then written in
 * one insert that skips trades already stored: the trade id is derived from
 * the fill identity, so redeliveries, reordered or concurrent, store each fill
 * once. The delivery is acknowledged once the trades are durable.
 *
 * What follows a write (ingestion freshness, derived trader stats, follower
 * notifications, publication on the trades topic) runs right after, in
 * delivery order, through the trade ingestion. It is durable: the insert also
 * records the new trades as waiting for their announcement, and the record
 * goes only once every step has run. A step that fails is logged, the others
 * run all the same, and the failed ones (only those) run again when the batch
 * is redelivered or at the next periodic sweep, until they succeed; a process
 * that dies leaves its records to the sweep of any process once their lease
 * has passed (a step that had succeeded before the crash then runs again).
 */
export class IndexerWebhookService {
  private announcing: Promise<unknown> = Promise.resolve();
  private backlog = 0;
  private sweepQueued = false;
  private readonly outbox: AnnouncementOutbox;
  private readonly leaseMs: number;
  private readonly schedule = new PeriodicTask(
    () => this.sweepSoon(),
    () => undefined, // sweepSoon logs its own failures
  );

  constructor(
    prisma: PrismaClient,
    private readonly sql: RawSql,
    private readonly tokens: OutcomeTokenIndex,
    private readonly tradeIngest: TradeIngestService,
    private readonly logger?: Logger,
    private readonly now: () => number = Date.now,
    options: IndexerWebhookOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? ANNOUNCE_LEASE_MS;
    this.outbox = new AnnouncementOutbox(prisma, this.leaseMs);
  }

  /** A delivery's records as they arrived (JSON); each is read and checked before anything is written. */
  async receive(fills: readonly unknown[]): Promise<FillBatchAck> {
    if (fills.length > MAX_FILL_BATCH) throw AppError.badRequest('fills', `at most ${MAX_FILL_BATCH} records`);
    const nowSeconds = Math.floor(this.now() / 1000);
    const checked = fills.map((f, i) => checkFill(readFill(f, i), i, nowSeconds));
    const known = await this.tokens.lookup(checked.map((c) => c.tokenId));
    const byId = new Map<string, PublicTrade>();
    checked.forEach((c, i) => {
      const token = known[i];
      if (!token) return; // not a venue_a market the catalog knows: nothing to attach the trade to
      const t = fillToTrade(c, token);
      if (!byId.has(t.venueTradeId)) byId.set(t.venueTradeId, t);
    });
    const trades = [...byId.values()];
    const { fresh, announcementId } = await insertTrades(this.sql, trades, this.leaseMs);
    if (trades.length > 0)
      this.announce(
        trades,
        trades.filter((t) => fresh.has(t.venueTradeId)),
        announcementId,
      );
    // Part of it was stored before: a redelivery, maybe because the announcement did not finish.
    if (fresh.size < trades.length) void this.sweepSoon();
    if (this.backlog > MAX_ANNOUNCE_BACKLOG) await this.drain();
    return { received: fills.length, skipped: fills.length - fresh.size };
  }

  /** Resolves when every announcement queued so far has run (tests). */
  async drain(): Promise<void> {
    await this.announcing;
  }

  /** Runs the sweep every `everyMs` (0: never) until {@link stop}. */
  start(everyMs: number): void {
    this.schedule.start(everyMs);
  }

  /** Stops the sweep and waits for the announcements queued (shutdown). */
  async stop(): Promise<void> {
    await this.schedule.stop();
    await this.drain();
  }

  /**
   * Runs the unfinished announcements whose lease has passed (their pending
   * steps only); returns how many it ran. Queued behind the announcements
   * already waiting, so one process runs one announcement at a time.
   */
  sweepSoon(): Promise<number> {
    if (this.sweepQueued) return this.announcing.then(() => 0);
    this.sweepQueued = true;
    const run = this.announcing
      .then(() => {
        this.sweepQueued = false;
        return this.sweep();
      })
      .catch((err: unknown) => {
        this.logger?.error({ err }, 'announcement sweep failed');
        return 0;
      });
    this.announcing = run;
    return run;
  }

  /** Announcements still unfinished (ops and tests). */
  pendingAnnouncements(): Promise<number> {
    return this.outbox.pendingCount();
  }

  private async sweep(): Promise<number> {
    let ran = 0;
    let after = 0n;
    for (;;) {
      const claimed = await this.outbox.claimExpired(SWEEP_BATCH, after);
      for (const a of claimed) {
        const trades = await this.outbox.trades(a.venue, a.tradeIds);
        const { failed } = await this.tradeIngest.announce([], trades, a.pending);
        await this.outbox.settle(a.id, failed);
        if (failed.length > 0)
          this.logger?.warn(
            { announcementId: a.id.toString(), failed, attempts: a.attempts },
            'announcement steps failed again',
          );
        after = a.id;
      }
      ran += claimed.length;
      if (claimed.length < SWEEP_BATCH) return ran;
    }
  }

  private announce(seen: PublicTrade[], stored: PublicTrade[], announcementId: bigint | null): void {
    this.backlog += stored.length;
    this.announcing = this.announcing
      .then(async () => {
        // Another process's sweep took the record over once its lease passed: it announces them.
        const steps = announcementId === null ? [] : await this.outbox.renew(announcementId);
        const { failed } = await this.tradeIngest.announce(seen, stored, steps ?? []);
        if (announcementId !== null && steps) await this.outbox.settle(announcementId, failed);
      })
      .catch((err: unknown) => this.logger?.error({ err }, 'announcing indexed trades failed'))
      .finally(() => {
        this.backlog -= stored.length;
      });
  }
}
