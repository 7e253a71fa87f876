import type { PrismaClient } from '../../db/generated/client';
import type { UsageReportView } from './usage.models';
import { utcDay, type UsageCount, type UsageRecorder } from './usage.recorder';

const DAY_MS = 86_400_000;

/** Usage reports: stored daily counts plus what this process has not flushed yet. */
export class UsageService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly recorder: UsageRecorder,
    private readonly now: () => number = Date.now,
  ) {}

  async report(owner: string, days: number): Promise<UsageReportView> {
    const today = utcDay(this.now());
    const first = utcDay(Date.parse(`${today}T00:00:00Z`) - (days - 1) * DAY_MS);
    const rows = await this.prisma.apiUsageDaily.findMany({
      where: { owner, day: { gte: new Date(`${first}T00:00:00Z`) } },
      select: { endpoint: true, day: true, requests: true },
    });
    const counts: UsageCount[] = [
      ...rows.map((r) => ({ owner, endpoint: r.endpoint, day: utcDay(r.day.getTime()), requests: Number(r.requests) })),
      ...this.recorder.pending(owner),
    ];
    return summarize(counts, first, today, days);
  }
}

/** Totals by endpoint and by day over `days` contiguous days from `first` to `last`. */
export function summarize(counts: readonly UsageCount[], first: string, last: string, days: number): UsageReportView {
  const byDay = new Map<string, number>();
  const byEndpoint: Record<string, number> = {};
  let total = 0;
  for (const c of counts) {
    if (c.day < first || c.day > last) continue;
    total += c.requests;
    byDay.set(c.day, (byDay.get(c.day) ?? 0) + c.requests);
    byEndpoint[c.endpoint] = (byEndpoint[c.endpoint] ?? 0) + c.requests;
  }
  const start = Date.parse(`${first}T00:00:00Z`);
  const dailyUsage = Array.from({ length: days }, (_, i) => {
    const date = utcDay(start + i * DAY_MS);
    return { date, requests: byDay.get(date) ?? 0 };
  });
  const sortedEndpoints = Object.fromEntries(
    Object.entries(byEndpoint).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return { periodDays: days, totalRequests: total, byEndpoint: sortedEndpoints, dailyUsage };
}
