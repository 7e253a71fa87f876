import { TRADING_FEE_KIND } from '../../../src/modules/ledger';
import { RewardsAccrual } from '../../../src/modules/rewards/rewards-accrual.service';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import type {
  ApplyReferralCodeMutation,
  ReferralCodeMutation,
  RewardsHistoryQuery,
} from '../../../schema/generated/operations';
import type { TestApp } from '../../support/app';
import { fund } from '../../support/funding';

/** A page of `GET /api/rewards/history`, and one reward of it. */
export type RewardsPage = RewardsHistoryQuery['rewardsHistory'];
export type Reward = RewardsPage['data'][number];

let orders = 0;

/**
 * Charges a trading fee exactly as execution does: the `trading_fee` ledger
 * movement (reference `order:<id>`, key `fee:<id>:<seq>`) and the rewards fee
 * listener in one transaction. The user is credited first so the debit clears.
 * `listen: false` posts the fee without telling rewards (a fee the listener missed).
 */
export async function chargeFee(
  app: TestApp,
  userId: string,
  feeMicros: bigint,
  o: { listen?: boolean; orderId?: string; seq?: number } = {},
) {
  orders += 1;
  const orderId = o.orderId ?? `ord-${process.pid}-${orders}`;
  const seq = o.seq ?? 1;
  const { db } = app.services;
  const ledger = app.services.get(LedgerService);
  const rewardsAccrual = app.services.get(RewardsAccrual);
  await fund(app, userId, feeMicros, { key: `test-deposit:${orderId}:${seq}`, reference: `test:${orderId}` });
  await db.prisma.$transaction(async (tx) => {
    await ledger.post(tx, {
      userId,
      kind: TRADING_FEE_KIND,
      available: -feeMicros,
      held: 0n,
      reference: `order:${orderId}`,
      idempotencyKey: `fee:${orderId}:${seq}`,
    });
    if (o.listen !== false) {
      await rewardsAccrual.onFeeCharged(tx, {
        userId,
        orderId,
        seq,
        venue: 'venue_b',
        feeMicros,
        chargedAt: new Date(),
      });
    }
  });
  return { orderId, seq, key: `fee:${orderId}:${seq}` };
}

/** The database clock, to the millisecond (fee and referral times are database times). */
export async function dbNow(app: TestApp): Promise<Date> {
  const [row] = await app.services.db.prisma.$queryRaw<
    { now: Date }[]
  >`SELECT CAST(clock_timestamp() AS TIMESTAMP(3)) AS "now"`;
  return row.now;
}

/**
 * Waits until the database clock has passed `at` (a referral's time): a
 * referral earns on fees charged strictly after it, to the millisecond.
 */
export async function dbClockPast(app: TestApp, at: Date | string): Promise<void> {
  const t = new Date(at).getTime();
  while ((await dbNow(app)).getTime() <= t) {
    // a busy wait: the clock passes it within the millisecond
  }
}

/** `child` applies `parent`'s code (creating it) and waits until fees after it count. */
export async function refer(app: TestApp, child: string, parent: string): Promise<string> {
  const { code } = (await app.as(parent).post('/api/rewards/referral/code'))
    .body as ReferralCodeMutation['referralCode'];
  const r = await app.as(child).post('/api/rewards/referral/apply', { code });
  if (r.status !== 200) throw new Error(`refer ${child} → ${parent}: ${r.status} ${r.text}`);
  await dbClockPast(app, (r.body as ApplyReferralCodeMutation['applyReferralCode']).referredBy!.appliedAt);
  return code;
}

/** The rewards of a user as stored, oldest first. */
export function rowsOf(app: TestApp, userId: string) {
  return app.services.db.prisma.rewardEntry.findMany({ where: { userId }, orderBy: { id: 'asc' } });
}
