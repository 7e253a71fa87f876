import type { PrismaClient } from '../../db/generated/client';
import { ANNOUNCE_STEPS, fromTradeRow, type AnnounceStep } from '../ingestion';
import type { PublicTrade, Venue } from '../../venues/venue.models';

/** A `TradeAnnouncement` row claimed by this process. */
export interface ClaimedAnnouncement {
  id: bigint;
  venue: Venue;
  tradeIds: string[];
  pending: AnnounceStep[];
  attempts: number;
}

const asSteps = (pending: readonly string[]): AnnounceStep[] => ANNOUNCE_STEPS.filter((s) => pending.includes(s));

/**
 * The durable record of announcements not finished: rows of `TradeAnnouncement`,
 * written by the trades' insert statement (see fill-store.ts), each leased to
 * one process at a time. Whoever holds the lease runs the pending steps and
 * settles the row: deleted when every step ran, else kept with the steps that
 * failed and its lease released, for a redelivery or the next sweep.
 */
export class AnnouncementOutbox {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly leaseMs: number,
  ) {}

  /**
   * Extends this process's lease on a row it stored and returns its pending
   * steps; null when the lease ran out first (the sweep of some process owns
   * the row now) or the row is gone.
   */
  async renew(id: bigint): Promise<AnnounceStep[] | null> {
    const rows = await this.prisma.$queryRaw<{ pending: string[] }[]>`
      UPDATE "TradeAnnouncement" SET "leaseUntil" = now() + ${this.leaseMs} * interval '1 millisecond',
      "attempts" = "attempts" + 1
      WHERE "id" = ${id} AND "leaseUntil" > now()
      RETURNING "pending"`;
    return rows[0] ? asSteps(rows[0].pending) : null;
  }

  /**
   * Claims up to `limit` rows whose lease has passed, after `afterId` (one sweep
   * goes forward, so a row failing again is left for the next sweep). Rows
   * another process is claiming at the same moment are skipped, not waited for.
   */
  async claimExpired(limit: number, afterId: bigint): Promise<ClaimedAnnouncement[]> {
    const rows = await this.prisma.$queryRaw<
      { id: bigint; venue: Venue; tradeIds: string[]; pending: string[]; attempts: number }[]
    >`
      UPDATE "TradeAnnouncement" a SET "leaseUntil" = now() + ${this.leaseMs} * interval '1 millisecond',
      "attempts" = a."attempts" + 1
      FROM (
        SELECT "id" FROM "TradeAnnouncement"
        WHERE "leaseUntil" <= now() AND "id" > ${afterId}
        ORDER BY "id" LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      ) c
      WHERE a."id" = c."id"
      RETURNING a."id", a."venue"::text AS "venue", a."tradeIds", a."pending", a."attempts"`;
    return rows.map((r) => ({ ...r, pending: asSteps(r.pending) })).sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /** Records a run: the row goes when nothing failed; else it keeps the failed steps and is free to claim at once. */
  async settle(id: bigint, failed: readonly AnnounceStep[]): Promise<void> {
    if (failed.length === 0) {
      await this.prisma.$executeRaw`DELETE FROM "TradeAnnouncement" WHERE "id" = ${id}`;
      return;
    }
    await this.prisma.$executeRaw`
      UPDATE "TradeAnnouncement" SET "pending" = ${[...failed]}::text[], "leaseUntil" = now() WHERE "id" = ${id}`;
  }

  /** The stored trades of a row, oldest first. */
  async trades(venue: Venue, tradeIds: readonly string[]): Promise<PublicTrade[]> {
    const rows = await this.prisma.trade.findMany({
      where: { venue, venueTradeId: { in: [...tradeIds] } },
      orderBy: [{ filledAt: 'asc' }, { venueTradeId: 'asc' }],
    });
    return rows.map(fromTradeRow);
  }

  /** Rows not finished (ops and tests). */
  pendingCount(): Promise<number> {
    return this.prisma.tradeAnnouncement.count();
  }
}
