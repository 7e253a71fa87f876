import type { Prisma, PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import { TRADING_FEE_KIND } from '../ledger/fee-events';
import { LEDGER_CURRENCY, type LedgerDb } from '../ledger/ledger.models';
import { microsToNumber } from '../../money';
import { newReferralCode, normalizeReferralCode } from './referral-code';
import { REWARDS_LIMITS } from './rewards.limits';
import type { ReferralStatusView } from './rewards.models';

/** Serializes referral changes, so two concurrent applications cannot close a loop between them. */
const REFERRAL_LOCK = 7_264_011;

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'P2002';
}

/**
 * Referral codes and referrals. Each user has at most one code of their own and
 * applies at most one other user's code, before their first trading fee; the
 * referrer earns the tier-1 share of the referred user's fees and the
 * referrer's own referrer the tier-2 share.
 */
export class ReferralsService {
  constructor(private readonly prisma: PrismaClient) {}

  /** The caller's code, created on first request (concurrent requests agree on one). */
  async code(userId: string): Promise<{ code: string; created: boolean }> {
    await this.prisma.rewardAccount.createMany({ data: [{ userId }], skipDuplicates: true });
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const have = await this.prisma.rewardAccount.findUniqueOrThrow({ where: { userId }, select: { code: true } });
      if (have.code) return { code: have.code, created: false };
      const code = newReferralCode();
      try {
        const { count } = await this.prisma.rewardAccount.updateMany({ where: { userId, code: null }, data: { code } });
        if (count === 1) return { code, created: true };
      } catch (err) {
        // Another user holds this code: draw again.
        if (!isUniqueViolation(err)) throw err;
      }
    }
    throw new AppError('internal', 'could not allocate a referral code');
  }

  /**
   * Applies another user's code. 400 when the code is malformed, unknown or the
   * caller's own; 409 when the caller was referred already (re-applying the
   * same code included), when their first fee was charged, or
   * when the referrer is in the caller's own downline (a loop).
   */
  async apply(userId: string, input: string): Promise<ReferralStatusView> {
    const code = normalizeReferralCode(input);
    await this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${REFERRAL_LOCK})`;
      const owner = await tx.rewardAccount.findUnique({ where: { code }, select: { userId: true, referrerId: true } });
      if (!owner) throw AppError.badRequest('code', 'no such referral code');
      if (owner.userId === userId) throw AppError.badRequest('code', 'is your own referral code');
      // Locks the caller's account row: the fee listener takes the same lock.
      const [me] = await tx.$queryRaw<{ referrerId: string | null; firstFeeAt: Date | null }[]>`
        INSERT INTO "RewardAccount" ("userId") VALUES (${userId})
        ON CONFLICT ("userId") DO UPDATE SET "userId" = EXCLUDED."userId"
        RETURNING "referrerId", "firstFeeAt"`;
      if (me.referrerId !== null) throw AppError.conflict('already referred: a referral code was applied before');
      if (me.firstFeeAt !== null || (await hasPaidFee(tx, userId))) {
        throw AppError.conflict('your first trading fee was already charged: a referral code applies only before it');
      }
      await assertNoLoop(tx, userId, owner.referrerId);
      await tx.$executeRaw`
        UPDATE "RewardAccount" SET "referrerId" = ${owner.userId}, "referredCode" = ${code},
          "referredAt" = CAST(clock_timestamp() AS TIMESTAMP(3))
        WHERE "userId" = ${userId}`;
    });
    return this.status(userId);
  }

  /** The caller's code, the referral they applied, and what their referrals earned them. */
  async status(userId: string): Promise<ReferralStatusView> {
    const [account, tier1, tier2, earned, paid] = await Promise.all([
      this.prisma.rewardAccount.findUnique({ where: { userId } }),
      this.prisma.rewardAccount.count({ where: { referrerId: userId } }),
      this.prisma.$queryRaw<{ n: bigint }[]>`
        SELECT COUNT(*)::bigint AS "n" FROM "RewardAccount" c JOIN "RewardAccount" p ON c."referrerId" = p."userId"
        WHERE p."referrerId" = ${userId}`,
      this.prisma.rewardEntry.groupBy({
        by: ['type'],
        where: { userId, type: { in: ['referral_tier1', 'referral_tier2'] } },
        _sum: { amountMicros: true },
      }),
      hasPaidFee(this.prisma, userId),
    ]);
    const sum = (type: string) => microsToNumber(earned.find((g) => g.type === type)?._sum.amountMicros ?? 0n);
    const referred = account?.referrerId && account.referredCode && account.referredAt;
    return {
      code: account?.code ?? null,
      referredBy: referred ? { code: account.referredCode!, appliedAt: account.referredAt! } : null,
      canApply: !account?.referrerId && !account?.firstFeeAt && !paid,
      tier1Referrals: tier1,
      tier2Referrals: Number(tier2[0]?.n ?? 0n),
      tier1EarnedUsd: sum('referral_tier1'),
      tier2EarnedUsd: sum('referral_tier2'),
    };
  }
}

/** Whether the ledger holds a USD trading fee of the user (the fee source of truth; paper fees do not count). */
async function hasPaidFee(db: LedgerDb, userId: string): Promise<boolean> {
  const fee = await db.ledgerEntry.findFirst({
    where: { userId, kind: TRADING_FEE_KIND, currency: LEDGER_CURRENCY },
    select: { id: true },
  });
  return fee !== null;
}

/** Walks the referrer's upline: meeting the caller there means the new referral would close a loop. */
async function assertNoLoop(tx: Prisma.TransactionClient, userId: string, firstUp: string | null): Promise<void> {
  let cur = firstUp;
  for (let depth = 0; cur !== null && depth < REWARDS_LIMITS.chainDepth; depth += 1) {
    if (cur === userId) throw AppError.conflict('referral loop: the code owner was referred, directly or not, by you');
    cur =
      (await tx.rewardAccount.findUnique({ where: { userId: cur }, select: { referrerId: true } }))?.referrerId ?? null;
  }
}
