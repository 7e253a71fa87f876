import type { LedgerDb } from '../ledger/ledger.models';
import type { FeeCharged, FeeListener } from '../ledger/fee-events';
import { accrualsFor, uplineAt, type FeeFact, type RewardRates, type ReferralLink } from './rewards.math';
import { trailOf } from './rewards.models';

/** The fee's identity: the idempotency key of its ledger movement. */
export function feeKey(orderId: string, seq: number): string {
  return `fee:${orderId}:${seq}`;
}

interface LinkRow {
  referrerId: string | null;
  referredAt: Date | null;
}

function linkOf(row: LinkRow | undefined): ReferralLink | null {
  return row?.referrerId && row.referredAt ? { referrerId: row.referrerId, referredAt: row.referredAt } : null;
}

/**
 * Accrues rewards from trading fees: the fee listener execution calls inside
 * the transaction that charges each fee, and the replay's worker. Both write
 * through {@link accrue}, so a replay computes exactly the rows the listener
 * would have written, and the rows' unique (source, type) key makes every
 * accrual idempotent on the fee's identity.
 */
export class RewardsAccrual implements FeeListener {
  constructor(
    private readonly rates: RewardRates,
    private readonly holdSeconds: number,
  ) {}

  async onFeeCharged(db: LedgerDb, fee: FeeCharged): Promise<void> {
    if (fee.feeMicros <= 0n) return;
    const key = feeKey(fee.orderId, fee.seq);
    await this.accrue(db, { key, userId: fee.userId, feeMicros: fee.feeMicros, at: await feeTime(db, key) });
  }

  /**
   * Writes the rewards one fee earns that are not written yet; returns how many
   * were. Row locks order it against referral changes: the payer's account is
   * locked (which also records the first fee), then the referrer's is read
   * under a share lock, so a referral made concurrently either is seen here or
   * is dated after the fee (see {@link uplineAt}).
   */
  async accrue(db: LedgerDb, fee: FeeFact): Promise<number> {
    const [payer] = await db.$queryRaw<LinkRow[]>`
      INSERT INTO "RewardAccount" ("userId", "firstFeeAt") VALUES (${fee.userId}, ${fee.at})
      ON CONFLICT ("userId") DO UPDATE SET
        "firstFeeAt" = LEAST(COALESCE("RewardAccount"."firstFeeAt", EXCLUDED."firstFeeAt"), EXCLUDED."firstFeeAt")
      RETURNING "referrerId", "referredAt"`;
    const payerLink = linkOf(payer);
    let parentLink: ReferralLink | null = null;
    if (payerLink && payerLink.referredAt.getTime() < fee.at.getTime()) {
      const [parent] = await db.$queryRaw<LinkRow[]>`
        SELECT "referrerId", "referredAt" FROM "RewardAccount" WHERE "userId" = ${payerLink.referrerId} FOR SHARE`;
      parentLink = linkOf(parent);
    }
    const accruals = accrualsFor(fee, uplineAt(payerLink, parentLink, fee.at), this.rates);
    if (accruals.length === 0) return 0;
    const availableAt = new Date(fee.at.getTime() + this.holdSeconds * 1000);
    const created = await db.rewardEntry.createManyAndReturn({
      data: accruals.map((a) => ({
        userId: a.userId,
        type: a.type,
        amountMicros: a.amountMicros,
        source: fee.key,
        sourceUserId: fee.userId,
        feeMicros: fee.feeMicros,
        rate: a.rate,
        accruedAt: fee.at,
        availableAt,
      })),
      skipDuplicates: true,
    });
    if (created.length === 0) return 0;
    await db.rewardEvent.createMany({ data: trailOf('accrued', created) });
    return created.length;
  }
}

/**
 * The fee's ledger time: its entry's `createdAt` when posted already, else the
 * transaction's clock, which is what the entry gets when posted later in the
 * same transaction (both at the column's millisecond precision).
 */
async function feeTime(db: LedgerDb, key: string): Promise<Date> {
  const [row] = await db.$queryRaw<{ at: Date }[]>`
    SELECT COALESCE((SELECT "createdAt" FROM "LedgerEntry" WHERE "idempotencyKey" = ${key}), CAST(now() AS
    TIMESTAMP(3))) AS "at"`;
  return row.at;
}
