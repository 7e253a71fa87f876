import type { PrismaClient } from '../../../db/generated/client';
import { microsToNumber } from '../../../money';
import { PRODUCT_METRIC_WINDOWS_DAYS as W } from './home.limits';

export interface CountWindowsView {
  total: number;
  last7d: number;
  last30d: number;
}

export interface VolumeWindowsView {
  /** USD notional of filled orders. */
  total: number;
  last7d: number;
  last30d: number;
  /** Of the total, live orders (real money; the rest ran in simulation). */
  live: number;
}

export interface FunnelStepView {
  /** `signed_up`, `wallet_linked_or_funded`, `first_trade`. */
  step: string;
  users: number;
  /** Share of the previous step (0..1); null on the first step or when the previous one is empty. */
  fromPrevious: number | null;
  /** Share of the signed-up users (0..1); null when nobody signed up. */
  fromSignUp: number | null;
}

export interface FunnelView {
  /** Each step counts the users of the previous step who also reached it. */
  steps: FunnelStepView[];
  /** Signed-up users with an imported (linked) wallet. */
  walletLinked: number;
  /** Signed-up users with a credited deposit on the ledger. */
  funded: number;
  /** Signed-up users with a filled order, linked or funded or not (simulation included). */
  traded: number;
}

export interface ProductMetricsView {
  generatedAt: Date;
  /** User rows (signed up through /auth/setup or a first wallet import); windows count sign-ups. */
  users: CountWindowsView;
  /** Distinct users who placed an order, commented or followed a trader in the window. */
  activeUsers: { last7d: number; last30d: number };
  /** Orders with at least one fill; windows by when the order was placed. */
  trades: CountWindowsView;
  volume: VolumeWindowsView;
  funnel: FunnelView;
}

const DAY_MS = 86_400_000;
const ratio = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);

/**
 * Product metrics for operators: four aggregate statements whatever the
 * number of users (no per-user reads).
 */
export class ProductMetricsService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly now: () => number = Date.now,
  ) {}

  async metrics(): Promise<ProductMetricsView> {
    const now = this.now();
    const d7 = new Date(now - W.short * DAY_MS);
    const d30 = new Date(now - W.long * DAY_MS);
    const [[users], [active], [trades], [funnel]] = await Promise.all([
      this.prisma.$queryRaw<{ total: number; last7d: number; last30d: number }[]>`
        SELECT count(*)::int AS "total",
               (count(*) FILTER (WHERE "createdAt" >= ${d7}))::int AS "last7d",
               (count(*) FILTER (WHERE "createdAt" >= ${d30}))::int AS "last30d"
        FROM "User"`,
      this.prisma.$queryRaw<{ last7d: number; last30d: number }[]>`
        SELECT (count(DISTINCT a."userId") FILTER (WHERE a."at" >= ${d7}))::int AS "last7d",
               count(DISTINCT a."userId")::int AS "last30d"
        FROM (
          SELECT "userId", max("createdAt") AS "at" FROM "Order" WHERE "createdAt" >= ${d30} GROUP BY 1
          UNION ALL
          SELECT "authorId", max("createdAt") FROM "Comment" WHERE "createdAt" >= ${d30} GROUP BY 1
          UNION ALL
          SELECT "userId", max("createdAt") FROM "Follow" WHERE "createdAt" >= ${d30} GROUP BY 1
        ) a`,
      this.prisma.$queryRaw<
        {
          total: number;
          last7d: number;
          last30d: number;
          volume: string;
          volume7d: string;
          volume30d: string;
          live: string;
        }[]
      >`
        SELECT count(*)::int AS "total",
               (count(*) FILTER (WHERE "createdAt" >= ${d7}))::int AS "last7d",
               (count(*) FILTER (WHERE "createdAt" >= ${d30}))::int AS "last30d",
               coalesce(sum("notionalMicros"), 0)::text AS "volume",
               coalesce(sum("notionalMicros") FILTER (WHERE "createdAt" >= ${d7}), 0)::text AS "volume7d",
               coalesce(sum("notionalMicros") FILTER (WHERE "createdAt" >= ${d30}), 0)::text AS "volume30d",
               coalesce(sum("notionalMicros") FILTER (WHERE "mode" = 'live'), 0)::text AS "live"
        FROM "Order"
        WHERE "filledSizeMicros" > 0`,
      this.prisma.$queryRaw<
        { signedUp: number; linked: number; funded: number; reached: number; traded: number; converted: number }[]
      >`
        SELECT count(*)::int AS "signedUp",
               (count(*) FILTER (WHERE x."linked"))::int AS "linked",
               (count(*) FILTER (WHERE x."funded"))::int AS "funded",
               (count(*) FILTER (WHERE x."linked" OR x."funded"))::int AS "reached",
               (count(*) FILTER (WHERE x."traded"))::int AS "traded",
               (count(*) FILTER (WHERE (x."linked" OR x."funded") AND x."traded"))::int AS "converted"
        FROM (
          SELECT EXISTS (SELECT 1 FROM "Wallet" w WHERE w."userId" = u."id" AND w."kind" = 'imported') AS "linked",
                 EXISTS (SELECT 1 FROM "LedgerEntry" e WHERE e."userId" = u."id" AND e."kind" = 'deposit' AND
        e."availableDelta" > 0) AS "funded",
                 EXISTS (SELECT 1 FROM "Order" o WHERE o."userId" = u."id" AND o."filledSizeMicros" > 0) AS "traded"
          FROM "User" u
        ) x`,
    ]);
    const f = funnel;
    return {
      generatedAt: new Date(now),
      users: users,
      activeUsers: active,
      trades: { total: trades.total, last7d: trades.last7d, last30d: trades.last30d },
      volume: {
        total: microsToNumber(BigInt(trades.volume)),
        last7d: microsToNumber(BigInt(trades.volume7d)),
        last30d: microsToNumber(BigInt(trades.volume30d)),
        live: microsToNumber(BigInt(trades.live)),
      },
      funnel: {
        steps: [
          { step: 'signed_up', users: f.signedUp, fromPrevious: null, fromSignUp: ratio(f.signedUp, f.signedUp) },
          {
            step: 'wallet_linked_or_funded',
            users: f.reached,
            fromPrevious: ratio(f.reached, f.signedUp),
            fromSignUp: ratio(f.reached, f.signedUp),
          },
          {
            step: 'first_trade',
            users: f.converted,
            fromPrevious: ratio(f.converted, f.reached),
            fromSignUp: ratio(f.converted, f.signedUp),
          },
        ],
        walletLinked: f.linked,
        funded: f.funded,
        traded: f.traded,
      },
    };
  }
}
