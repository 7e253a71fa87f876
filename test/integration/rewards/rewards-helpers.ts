import { TRADING_FEE_KIND } from '../../../src/modules/ledger';
import { RewardsAccrual } from '../../../src/modules/rewards/rewards-accrual.service';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { http, type TestApp } from '../../support/app';

export interface Reward {
  id: string;
  type: string;
  state: string;
  amount: number;
  unit: string;
  source: string;
  fee: number;
  rate: number;
  accruedAt: string;
  availableAt: string;
  claimId: string | null;
}
export interface Page<T> {
  data: T[];
  limit: number;
  offset: number;
  total: number;
}

/** A request as `sub` (bearer token). */
export async function as(
  app: TestApp,
  sub: string,
  method: string,
  path: string,
  json?: unknown,
  headers: Record<string, string> = {},
) {
  return http(`${app.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${await app.token(sub)}`, ...headers },
    json,
  });
}

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
  await ledger.postAll([
    {
      userId,
      kind: 'deposit',
      available: feeMicros,
      held: 0n,
      reference: `test:${orderId}`,
      idempotencyKey: `test-deposit:${orderId}:${seq}`,
    },
  ]);
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

/**
 * Waits until the database clock has passed `at` (a referral's time): a
 * referral earns on fees charged strictly after it, to the millisecond.
 */
export async function dbClockPast(app: TestApp, at: Date | string): Promise<void> {
  const t = new Date(at).getTime();
  for (;;) {
    const [row] = await app.services.db.prisma.$queryRaw<
      { now: Date }[]
    >`SELECT CAST(clock_timestamp() AS TIMESTAMP(3)) AS "now"`;
    if (row!.now.getTime() > t) return;
  }
}

/** `child` applies `parent`'s code (creating it) and waits until fees after it count. */
export async function refer(app: TestApp, child: string, parent: string): Promise<string> {
  const code = ((await as(app, parent, 'POST', '/api/rewards/referral/code')).body as { code: string }).code;
  const r = await as(app, child, 'POST', '/api/rewards/referral/apply', { code });
  if (r.status !== 200) throw new Error(`refer ${child} → ${parent}: ${r.status} ${r.text}`);
  await dbClockPast(app, (r.body as { referredBy: { appliedAt: string } }).referredBy.appliedAt);
  return code;
}

/** The rewards of a user as stored, oldest first. */
export function rowsOf(app: TestApp, userId: string) {
  return app.services.db.prisma.rewardEntry.findMany({ where: { userId }, orderBy: { id: 'asc' } });
}
