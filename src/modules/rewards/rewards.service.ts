import { PeriodicTask } from '../../infra';
import type { PrismaClient } from '../../db/generated/client';
import { readOffsetPage } from '../../db/offset-page';
import { AppError } from '../../errors/app-error';
import type { Logger } from '../../http/logger';
import { microsToNumber } from '../../money';
import type { NewNotification } from '../notifications';
import { REWARD_TYPES, type RewardType } from './rewards.limits';
import {
  trailOf,
  toRewardEventView,
  toRewardView,
  unitOf,
  type OffsetPage,
  type RewardEventView,
  type RewardsSummaryView,
  type RewardView,
} from './rewards.models';

interface Released {
  userId: string;
  type: RewardType;
  amountMicros: bigint;
}

/**
 * The caller's side of the rewards ledger: totals, rows, the audit trail, and
 * the release of held rewards. A reward accrues `pending` and becomes
 * `available` once its hold ends (`availableAt`): released by the background
 * sweep and, so nobody waits for it, before every read of the user's own
 * rewards and before a claim. Each release appends an `available` event and
 * notifies the user once per release.
 */
export class RewardsService {
  private readonly schedule = new PeriodicTask(
    () => this.release(),
    (err: unknown) => this.logger?.error({ err }, 'rewards release failed'),
  );

  constructor(
    private readonly prisma: PrismaClient,
    private readonly notify: (items: NewNotification[]) => Promise<unknown>,
    private readonly now: () => number = Date.now,
    private readonly logger?: Logger,
  ) {}

  /**
   * Cashback and referral USD totals by state, points, and the next release.
   * A failing data store is a 503 here (the interface declares it).
   */
  async summary(userId: string): Promise<RewardsSummaryView> {
    try {
      await this.release(userId);
      const [groups, next] = await Promise.all([
        this.prisma.rewardEntry.groupBy({ by: ['type', 'state'], where: { userId }, _sum: { amountMicros: true } }),
        this.prisma.rewardEntry.findFirst({
          where: { userId, state: 'pending' },
          orderBy: { availableAt: 'asc' },
          select: { availableAt: true },
        }),
      ]);
      const at = (type: RewardType, state: string) =>
        groups.find((g) => g.type === type && g.state === state)?._sum.amountMicros ?? 0n;
      const byType = REWARD_TYPES.map((type) => {
        const [pending, available, claimed] = [at(type, 'pending'), at(type, 'available'), at(type, 'claimed')];
        return { type, unit: unitOf(type), pending, available, claimed, total: pending + available + claimed };
      });
      const usd = byType.filter((t) => t.unit === 'USD');
      const sum = (rows: typeof byType, pick: (t: (typeof byType)[number]) => bigint) =>
        microsToNumber(rows.reduce((s, t) => s + pick(t), 0n));
      return {
        currency: 'USD',
        cashbackUsd: sum(
          usd.filter((t) => t.type === 'cashback'),
          (t) => t.total,
        ),
        referralUsd: sum(
          usd.filter((t) => t.type !== 'cashback'),
          (t) => t.total,
        ),
        claimableUsd: sum(usd, (t) => t.available),
        pendingUsd: sum(usd, (t) => t.pending),
        claimedUsd: sum(usd, (t) => t.claimed),
        points: sum(
          byType.filter((t) => t.unit === 'points'),
          (t) => t.total,
        ),
        byType: byType.map((t) => ({
          type: t.type,
          unit: t.unit,
          pending: microsToNumber(t.pending),
          available: microsToNumber(t.available),
          claimed: microsToNumber(t.claimed),
          total: microsToNumber(t.total),
        })),
        nextAvailableAt: next?.availableAt ?? null,
      };
    } catch (err) {
      if (err instanceof AppError) throw err;
      this.logger?.error({ err }, 'rewards summary: data store failed');
      throw AppError.unavailable('the rewards data store is unavailable');
    }
  }

  /** The caller's rewards, newest first. */
  async history(userId: string, limit: number, offset: number): Promise<OffsetPage<RewardView>> {
    await this.release(userId);
    const where = { userId };
    return readOffsetPage(
      this.prisma,
      { limit, offset },
      (window) => [
        this.prisma.rewardEntry.findMany({ where, orderBy: { id: 'desc' }, ...window }),
        this.prisma.rewardEntry.count({ where }),
      ],
      toRewardView,
    );
  }

  /** Every change of the caller's rewards (accrued, available, claimed), newest first. */
  async audit(userId: string, limit: number, offset: number): Promise<OffsetPage<RewardEventView>> {
    await this.release(userId);
    const where = { userId };
    return readOffsetPage(
      this.prisma,
      { limit, offset },
      (window) => [
        this.prisma.rewardEvent.findMany({ where, orderBy: { id: 'desc' }, ...window }),
        this.prisma.rewardEvent.count({ where }),
      ],
      toRewardEventView,
    );
  }

  /**
   * Moves held rewards whose hold has ended to `available` (one user's, or
   * everyone's), once each: the conditional update locks the rows, so a
   * concurrent release finds them moved. Returns how many moved.
   */
  async release(userId?: string): Promise<number> {
    const now = new Date(this.now());
    const moved = await this.prisma.$transaction(async (tx) => {
      const rows =
        userId === undefined
          ? await tx.$queryRaw<(Released & { id: bigint; source: string })[]>`
              UPDATE "RewardEntry" SET "state" = 'available' WHERE "state" = 'pending' AND "availableAt" <= ${now}
              RETURNING "id", "userId", "type"::text AS "type", "amountMicros", "source"`
          : await tx.$queryRaw<(Released & { id: bigint; source: string })[]>`
              UPDATE "RewardEntry" SET "state" = 'available'
              WHERE "userId" = ${userId} AND "state" = 'pending' AND "availableAt" <= ${now}
              RETURNING "id", "userId", "type"::text AS "type", "amountMicros", "source"`;
      if (rows.length > 0) {
        await tx.rewardEvent.createMany({ data: trailOf('available', rows) });
      }
      return rows;
    });
    if (moved.length > 0) await this.notify(releaseNotifications(moved));
    return moved.length;
  }

  /** Runs {@link release} every `everyMs` (0: never) until {@link stop}. */
  start(everyMs: number): void {
    this.schedule.start(everyMs);
  }

  async stop(): Promise<void> {
    await this.schedule.stop();
  }
}

/** One `reward` notification per user and release: the USD now claimable and the points credited. */
function releaseNotifications(rows: readonly Released[]): NewNotification[] {
  const by = new Map<string, { usd: bigint; points: bigint; count: number }>();
  for (const r of rows) {
    const t = by.get(r.userId) ?? { usd: 0n, points: 0n, count: 0 };
    if (unitOf(r.type) === 'USD') t.usd += r.amountMicros;
    else t.points += r.amountMicros;
    t.count += 1;
    by.set(r.userId, t);
  }
  return [...by].map(([userId, t]) => {
    const parts = [
      t.usd > 0n && `$${microsToNumber(t.usd)} ready to claim`,
      t.points > 0n && `${microsToNumber(t.points)} points`,
    ].filter(Boolean);
    return {
      userId,
      kind: 'reward' as const,
      title: 'Rewards available',
      body: parts.join(', '),
      data: {
        event: 'available',
        usd: microsToNumber(t.usd).toString(),
        points: microsToNumber(t.points).toString(),
        rewards: String(t.count),
      },
    };
  });
}
