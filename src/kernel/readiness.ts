/** What `/health/ready` answers: ready, or not with every reason. */
export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  /** Why not, one line each (empty when ready). */
  reasons: string[];
  database: 'ok' | 'unreachable';
  redis: 'ok' | 'unreachable' | 'unused';
  /** Whether this process runs exclusive background jobs (`WORKERS`). */
  workers: boolean;
  /** The exclusive jobs this process runs now (it holds their leases). */
  leases: string[];
}

/** The probes readiness asks, each bounded in time by the caller's implementation. */
export interface ReadinessProbes {
  database(): Promise<boolean>;
  /** Undefined without Redis. */
  redis?(): Promise<boolean>;
  /** Migrations the schema lacks (empty when up to date). */
  pendingMigrations(): Promise<string[]>;
  shuttingDown(): boolean;
  workers: boolean;
  leases(): string[];
}

/**
 * Readiness of this process to take traffic: its database and Redis answer, its
 * schema is migrated, its start-up work is done, and it is not draining.
 * Start-up work registers with {@link begin} and ends with the function it returns.
 * `onChange` hears each check whose status differs from the previous check's
 * (the first one included): the process logs readiness once per transition.
 */
export class Readiness {
  private readonly starting = new Map<number, string>();
  private nextId = 0;
  private migrated = false;
  private lastStatus: ReadinessReport['status'] | undefined;

  constructor(
    private readonly probes: ReadinessProbes,
    private readonly onChange?: (report: ReadinessReport) => void,
  ) {}

  /** Marks `what` as start-up work in progress; call the result when it is done. */
  begin(what: string): () => void {
    const id = this.nextId++;
    this.starting.set(id, what);
    return () => this.starting.delete(id);
  }

  async check(): Promise<ReadinessReport> {
    const p = this.probes;
    const [database, redis] = await Promise.all([p.database(), p.redis?.()]);
    const reasons: string[] = [];
    if (p.shuttingDown()) reasons.push('draining: the process is shutting down');
    if (!database) reasons.push('database unreachable');
    if (redis === false) reasons.push('redis unreachable');
    if (database && !this.migrated) {
      const pending = await p.pendingMigrations().catch(() => null);
      if (pending === null) reasons.push('migrations: cannot read the applied migrations');
      else if (pending.length > 0) {
        reasons.push(`migrations: ${pending.length} not applied (first: ${pending[0]})`);
      } else this.migrated = true;
    }
    const starting = [...new Set(this.starting.values())];
    if (starting.length > 0) reasons.push(`starting: ${starting.join(', ')}`);
    const report: ReadinessReport = {
      status: reasons.length === 0 ? 'ready' : 'not_ready',
      reasons,
      database: database ? 'ok' : 'unreachable',
      redis: redis === undefined ? 'unused' : redis ? 'ok' : 'unreachable',
      workers: p.workers,
      leases: p.leases(),
    };
    if (report.status !== this.lastStatus) {
      this.lastStatus = report.status;
      this.onChange?.(report);
    }
    return report;
  }
}
