/**
 * CPU time of the machine's PostgreSQL server, read from `/proc` (Linux): what its live
 * processes (`comm` = `postgres`) have used, plus what the postmaster's ended children
 * (connections closed since it started) used. A bench takes two readings around a window
 * and divides by what it did, to say what the database spent per operation. Only
 * meaningful for a server on this machine; undefined where `/proc` is not readable.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second for `/proc/<pid>/stat` (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

function stat(pid: string): { comm: string; ppid: number; own: number; children: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    // Fields after the command: state(3) ppid(4) … utime(14) stime(15) cutime(16) cstime(17).
    const f = text.slice(close + 2).split(' ');
    return {
      comm,
      ppid: Number(f[1]),
      own: Number(f[11]) + Number(f[12]),
      children: Number(f[13]) + Number(f[14]),
    };
  } catch {
    return undefined;
  }
}

/** PostgreSQL's CPU so far, in ms (undefined when there is no readable postgres process). */
export function postgresCpuMs(): number | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return undefined;
  }
  const procs = pids.map((p) => ({ pid: Number(p), s: stat(p) })).filter((p) => p.s?.comm === 'postgres');
  if (procs.length === 0) return undefined;
  const ids = new Set(procs.map((p) => p.pid));
  let ticks = 0;
  for (const { s } of procs) {
    ticks += s!.own;
    // The postmaster (its parent is not postgres) holds its ended children's time.
    if (!ids.has(s!.ppid)) ticks += s!.children;
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** What one timed window of a bench took. */
export interface MeasuredWindow<T> {
  value: T;
  seconds: number;
  /** This process's CPU over the window (ms). */
  clientCpuMs: number;
  /** PostgreSQL's CPU over the window (ms); undefined when not asked for or not readable. */
  databaseCpuMs?: number;
}

/** Runs `run` as one timed window: its wall time, this process's CPU and (when asked) PostgreSQL's. */
export async function measureWindow<T>(run: () => Promise<T>, readDatabase: boolean): Promise<MeasuredWindow<T>> {
  const dbBefore = readDatabase ? postgresCpuMs() : undefined;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await run();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const dbAfter = dbBefore === undefined ? undefined : postgresCpuMs();
  return {
    value,
    seconds,
    clientCpuMs: (used.user + used.system) / 1000,
    databaseCpuMs: dbBefore !== undefined && dbAfter !== undefined ? dbAfter - dbBefore : undefined,
  };
}
