import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What one measured scenario produced. */
export interface ScenarioResult {
  name: string;
  method: string;
  path: string;
  /** Responses per second, mean over the run's one-second samples (all statuses). */
  rps: number;
  /** Latency percentiles in ms, over every response. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Responses, by outcome. */
  responses: number;
  expected: number;
  non2xx: number;
  /** Responses whose status was not the scenario's `expectStatus`. */
  unexpectedStatus: number;
  /** Responses with the expected status whose body carried `"errors":` (GraphQL errors under a 200). */
  bodyErrors: number;
  /** Connection errors and timeouts. */
  connectionErrors: number;
  statusCounts: Record<string, number>;
  /** False when too many requests failed: the numbers then measure failure, not speed. */
  ok: boolean;
  problems: string[];
  /** Versus the baseline: rps ratio (app / baseline) and p50 ratio (app / baseline). */
  rpsVsBaseline?: number;
  p50VsBaseline?: number;
  /** SQL statements the server ran per response during the measurement (its `db_queries_total`). */
  sqlPerRequest?: number;
}

/** The whole run, as written to `results/latest.json`. */
export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  settings: Record<string, string | number>;
  machine: Record<string, string | number>;
  server: { command: string; database: string; exit?: string };
  baseline: ScenarioResult;
  scenarios: ScenarioResult[];
  /** Scenarios measured against another one (`comparesTo`): throughput ratio, e.g. the limiter's cost. */
  comparisons?: { name: string; comparesTo: string; rpsRatio: number; rounds: number[] }[];
  /** Servers started with a scenario's own settings, beside the main one. */
  variants?: { env: Record<string, string>; exit?: string }[];
  ok: boolean;
}

/** Adds the baseline ratios to each application result (only meaningful when both are ok). */
export function withRatios(baseline: ScenarioResult, results: ScenarioResult[]): ScenarioResult[] {
  return results.map((r) => ({
    ...r,
    rpsVsBaseline: r.ok && baseline.ok && baseline.rps > 0 ? r.rps / baseline.rps : undefined,
    p50VsBaseline: r.ok && baseline.ok && baseline.p50 > 0 ? r.p50 / baseline.p50 : undefined,
  }));
}

function num(value: number, digits: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function ratio(value: number | undefined): string {
  return value === undefined ? 'n/a' : `${num(value, value < 10 ? 2 : 1)}x`;
}

/** The results as a fixed-width text table. */
export function formatTable(baseline: ScenarioResult, results: ScenarioResult[]): string {
  const header = [
    'scenario',
    'status',
    'rps',
    'p50 ms',
    'p99 ms',
    'non-2xx',
    'failed',
    'sql/req',
    'rps/base',
    'p50/base',
  ];
  const rows = [baseline, ...results].map((r) => [
    r.name,
    r.ok ? 'ok' : 'FAILED',
    num(r.rps, 0),
    num(r.p50, 2),
    num(r.p99, 2),
    String(r.non2xx),
    String(r.unexpectedStatus + r.bodyErrors + r.connectionErrors),
    r.sqlPerRequest === undefined ? '' : num(r.sqlPerRequest, 2),
    r === baseline ? '1.00x' : ratio(r.rpsVsBaseline),
    r === baseline ? '1.00x' : ratio(r.p50VsBaseline),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
  for (const r of [baseline, ...results]) {
    for (const p of r.problems) out.push(`! ${r.name}: ${p}`);
  }
  return out.join('\n');
}

/** Writes the report as pretty JSON, creating the folder if needed; returns the path. */
export function writeReport(report: BenchReport, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'latest.json');
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
