import { PeriodicTask } from '../../infra';
import type { CatalogService, CatalogSource, SyncReport } from './catalog.service';
import type { MarketIndex } from './market-index';

/**
 * The catalog sync as a job: runs {@link CatalogService.sync} over the
 * platform's venues on a schedule and on demand (the `syncCatalog` mutation,
 * an admin override). Runs of one process never overlap; across processes the
 * sync's advisory lock lets one write and the others skip.
 */
export class CatalogJob {
  private readonly schedule: PeriodicTask;
  private running: Promise<SyncReport> | null = null;
  private queued: Promise<SyncReport> | null = null;

  constructor(
    private readonly catalog: CatalogService,
    private readonly index: MarketIndex,
    private readonly source: CatalogSource,
    onError: (err: unknown) => void,
  ) {
    this.schedule = new PeriodicTask(() => this.run(), onError);
  }

  /** True when the job groups venue events itself (a venue is live); false on the simulated world's grouping. */
  get matching(): boolean {
    return this.source.coreEvents === undefined;
  }

  /**
   * One sync now. A call while one runs gets the run after it (shared by every
   * caller meanwhile), so what changed before the call is always synced. The
   * process's market index is reloaded after each run.
   */
  run(): Promise<SyncReport> {
    if (this.running) {
      this.queued ??= this.running
        .catch(() => undefined)
        .then(() => {
          this.queued = null;
          return this.run();
        });
      return this.queued;
    }
    const run = this.once();
    this.running = run;
    run.then(
      () => this.settle(run),
      () => this.settle(run),
    );
    return run;
  }

  private settle(run: Promise<SyncReport>): void {
    if (this.running === run) this.running = null;
  }

  private async once(): Promise<SyncReport> {
    const report = await this.catalog.sync(this.source);
    await this.index.refresh();
    return report;
  }

  /** Syncs every `everyMs` (0: never). */
  start(everyMs: number): void {
    this.schedule.start(everyMs);
  }

  async stop(): Promise<void> {
    await this.schedule.stop();
    await this.queued?.catch(() => undefined);
    await this.running?.catch(() => undefined);
  }
}
