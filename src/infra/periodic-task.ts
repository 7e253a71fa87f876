/**
 * Runs a job every `everyMs` in the background, one run at a time (a slow run
 * delays the next rather than overlapping it); a failed run is reported and
 * the schedule goes on. {@link stop} waits for the run in progress.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly job: () => Promise<unknown>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Starts the schedule (0 or less: never runs); starting twice keeps the first. */
  start(everyMs: number): void {
    if (everyMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      this.running = this.running.then(this.job).catch(this.onError);
    }, everyMs);
    this.timer.unref();
  }

  /** Runs the job once now, after the run in progress (a failure is reported like a scheduled run's). */
  runNow(): void {
    this.running = this.running.then(this.job).catch(this.onError);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
