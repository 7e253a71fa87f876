import type { LedgerEntry, PrismaClient, RewardEntry } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import { TRADING_FEE_KIND } from '../ledger/fee-events';
import { LEDGER_CURRENCY } from '../ledger/ledger.models';
import { microsToDecimal, microsToNumber } from '../../money';
import type { RewardsAccrual } from './rewards-accrual.service';
import { REWARD_TYPES, REWARDS_LIMITS as L, type RewardType } from './rewards.limits';
import {
  accrualsFor,
  amountAt,
  feeOfEntry,
  uplineAt,
  type FeeFact,
  type ReferralLink,
  type RewardRates,
} from './rewards.math';
import { rewardEntryFields, unitOf } from './rewards.models';
import type {
  DiscrepancyReason,
  DiscrepancyView,
  ReconciliationView,
  ReplayReportView,
  RewardExportRow,
  TimeWindow,
} from './reconciliation.models';

const DAY_MS = 86_400_000;
const PAGE = 1000;

function toFact(e: LedgerEntry): FeeFact {
  return {
    key: e.idempotencyKey,
    userId: e.userId,
    feeMicros: feeOfEntry(e.availableDelta, e.heldDelta),
    at: e.createdAt,
  };
}

interface Tally {
  expectedCount: number;
  recordedCount: number;
  expected: bigint;
  recorded: bigint;
}

/**
 * The admin side of rewards: reconciliation of the rewards ledger against the
 * trading fees of the balance ledger (the fee source of truth), the export of
 * the rewards ledger, and the replay that writes the rewards a window's fees
 * should have earned and lack (never changing a stored row).
 */
export class RewardsReconciliation {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly accrual: RewardsAccrual,
    private readonly rates: RewardRates,
    private readonly now: () => number = Date.now,
  ) {}

  /** `[from, to)`: `to` defaults to now, `from` to 30 days before `to`; at most 366 days (400 otherwise). */
  window(from?: Date | null, to?: Date | null): TimeWindow {
    const end = to ?? new Date(this.now());
    const start = from ?? new Date(end.getTime() - L.window.defaultDays * DAY_MS);
    if (start.getTime() >= end.getTime()) throw AppError.badRequest('to', 'must be after from');
    if (end.getTime() - start.getTime() > L.window.maxDays * DAY_MS)
      throw AppError.badRequest('to', `must be at most ${L.window.maxDays} days after from`);
    return { from: start, to: end };
  }

  /**
   * Recomputes what every fee of the window should have earned (current rates
   * for rewards not written; a stored reward is checked at the rate it
   * recorded) and compares with the rewards ledger.
   */
  async summary(w: TimeWindow): Promise<ReconciliationView> {
    const tallies = new Map<RewardType, Tally>(
      REWARD_TYPES.map((t) => [t, { expectedCount: 0, recordedCount: 0, expected: 0n, recorded: 0n }]),
    );
    const listed: DiscrepancyView[] = [];
    let discrepancyCount = 0;
    const flag = (
      reason: DiscrepancyReason,
      type: RewardType,
      source: string,
      exp: { userId: string | null; micros: bigint },
      row?: RewardEntry,
    ) => {
      discrepancyCount += 1;
      if (listed.length >= L.discrepanciesListed) return;
      listed.push({
        reason,
        source,
        type,
        expectedUserId: exp.userId,
        recordedUserId: row?.userId ?? null,
        expected: microsToNumber(exp.micros),
        recorded: microsToNumber(row?.amountMicros ?? 0n),
        rewardId: row?.id.toString() ?? null,
      });
    };
    let fees = 0;
    let feesMicros = 0n;
    for await (const page of this.feePages(w, PAGE)) {
      const facts = page.map(toFact);
      const [rows, links] = await Promise.all([
        this.prisma.rewardEntry.findMany({ where: { source: { in: facts.map((f) => f.key) } } }),
        this.links(facts.map((f) => f.userId)),
      ]);
      const bySource = new Map<string, RewardEntry[]>();
      for (const r of rows) bySource.set(r.source, [...(bySource.get(r.source) ?? []), r]);
      for (const fee of facts) {
        fees += 1;
        feesMicros += fee.feeMicros;
        const payerLink = links.get(fee.userId) ?? null;
        const upline = uplineAt(payerLink, payerLink ? (links.get(payerLink.referrerId) ?? null) : null, fee.at);
        const expected = accrualsFor(fee, upline, this.rates);
        const beneficiary: Record<RewardType, string | null> = {
          cashback: fee.userId,
          points: fee.userId,
          referral_tier1: upline.tier1,
          referral_tier2: upline.tier2,
        };
        for (const type of REWARD_TYPES) {
          const t = tallies.get(type)!;
          const row = bySource.get(fee.key)?.find((r) => r.type === type);
          const exp = expected.find((a) => a.type === type);
          if (!row) {
            if (!exp) continue;
            t.expectedCount += 1;
            t.expected += exp.amountMicros;
            flag('missing', type, fee.key, { userId: exp.userId, micros: exp.amountMicros });
            continue;
          }
          t.recordedCount += 1;
          t.recorded += row.amountMicros;
          const who = beneficiary[type];
          if (who === null) {
            flag('unexpected', type, fee.key, { userId: null, micros: 0n }, row);
            continue;
          }
          const should = amountAt(type, fee.feeMicros, row.rate);
          t.expectedCount += 1;
          t.expected += should;
          if (row.userId !== who || row.sourceUserId !== fee.userId)
            flag('beneficiary', type, fee.key, { userId: who, micros: should }, row);
          else if (row.feeMicros !== fee.feeMicros || row.amountMicros !== should)
            flag('amount', type, fee.key, { userId: who, micros: should }, row);
        }
      }
    }
    for (const row of await this.orphans(w)) {
      const t = tallies.get(row.type)!;
      t.recordedCount += 1;
      t.recorded += row.amountMicros;
      flag('orphan', row.type, row.source, { userId: null, micros: 0n }, row);
    }
    return {
      from: w.from,
      to: w.to,
      fees,
      feesUsd: microsToNumber(feesMicros),
      byType: REWARD_TYPES.map((type) => {
        const t = tallies.get(type)!;
        return {
          type,
          unit: unitOf(type),
          ...t,
          expected: microsToNumber(t.expected),
          recorded: microsToNumber(t.recorded),
        };
      }),
      discrepancyCount,
      discrepancies: listed,
      balanced: discrepancyCount === 0,
      checkedAt: new Date(this.now()),
    };
  }

  /** The rewards ledger rows accrued in the window, oldest first (400 beyond the export cap). */
  async exportRows(w: TimeWindow): Promise<RewardExportRow[]> {
    const rows = await this.prisma.rewardEntry.findMany({
      where: { accruedAt: { gte: w.from, lt: w.to } },
      orderBy: { id: 'asc' },
      take: L.exportMaxRows + 1,
    });
    if (rows.length > L.exportMaxRows)
      throw AppError.badRequest('to', `the window holds more than ${L.exportMaxRows} rewards; narrow from and to`);
    return rows.map((r) => ({
      ...rewardEntryFields(r),
      userId: r.userId,
      state: r.state,
      amount: microsToDecimal(r.amountMicros),
      sourceUserId: r.sourceUserId,
      fee: microsToDecimal(r.feeMicros),
    }));
  }

  /**
   * Writes the rewards the window's fees earn and lack, through the listener's
   * own accrual (so the rows are those it would have written), a batch of fees
   * per transaction. Replaying again writes nothing.
   */
  async replay(w: TimeWindow): Promise<ReplayReportView> {
    let fees = 0;
    let inserted = 0;
    for await (const page of this.feePages(w, L.replayBatch)) {
      fees += page.length;
      inserted += await this.prisma.$transaction(async (tx) => {
        let n = 0;
        for (const fee of page.map(toFact)) if (fee.feeMicros > 0n) n += await this.accrual.accrue(tx, fee);
        return n;
      });
    }
    return { from: w.from, to: w.to, fees, inserted };
  }

  /** The window's `trading_fee` ledger entries in USD (paper fees earn nothing), by id, a page at a time. */
  private async *feePages(w: TimeWindow, size: number): AsyncGenerator<LedgerEntry[]> {
    let after = 0n;
    for (;;) {
      const page = await this.prisma.ledgerEntry.findMany({
        where: {
          kind: TRADING_FEE_KIND,
          currency: LEDGER_CURRENCY,
          createdAt: { gte: w.from, lt: w.to },
          id: { gt: after },
        },
        orderBy: { id: 'asc' },
        take: size,
      });
      if (page.length === 0) return;
      yield page;
      after = page[page.length - 1].id;
      if (page.length < size) return;
    }
  }

  /** Referral links of the payers and of their referrers. */
  private async links(payers: string[]): Promise<Map<string, ReferralLink>> {
    const out = new Map<string, ReferralLink>();
    const load = async (ids: string[]) => {
      const rows = await this.prisma.rewardAccount.findMany({
        where: { userId: { in: ids }, referrerId: { not: null }, referredAt: { not: null } },
        select: { userId: true, referrerId: true, referredAt: true },
      });
      for (const r of rows) out.set(r.userId, { referrerId: r.referrerId!, referredAt: r.referredAt! });
      return rows.map((r) => r.referrerId!);
    };
    const parents = await load([...new Set(payers)]);
    await load([...new Set(parents)].filter((id) => !out.has(id)));
    return out;
  }

  /** Rewards accrued in the window whose source is no trading fee of the ledger. */
  private async orphans(w: TimeWindow): Promise<RewardEntry[]> {
    const ids = await this.prisma.$queryRaw<{ id: bigint }[]>`
      SELECT r."id" FROM "RewardEntry" r
      LEFT JOIN "LedgerEntry" l ON l."idempotencyKey" = r."source" AND l."kind" = ${TRADING_FEE_KIND}
        AND l."currency" = ${LEDGER_CURRENCY}
      WHERE r."accruedAt" >= ${w.from} AND r."accruedAt" < ${w.to} AND l."id" IS NULL
      ORDER BY r."id" LIMIT ${L.exportMaxRows}`;
    if (ids.length === 0) return [];
    return this.prisma.rewardEntry.findMany({ where: { id: { in: ids.map((r) => r.id) } }, orderBy: { id: 'asc' } });
  }
}
