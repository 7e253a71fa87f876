/** A dependency became unreachable, or reachable again: reported once per transition. */
export type AvailabilityChange =
  | {
      dependency: string;
      available: false;
      /** The failure that started the outage. */
      error: Error;
    }
  | {
      dependency: string;
      available: true;
      /** How long the outage lasted (ms). */
      downMs: number;
      /** Failures during the outage after the first, which nobody reported (see {@link DependencyHealth.absorb}). */
      absorbed: number;
    };

export interface DependencyHealthOptions {
  /** Told of each transition (the process logs it: one line per outage and one per recovery). */
  onChange: (change: AvailabilityChange) => void;
  /** Told of each failure absorbed during an outage (a metric). */
  onAbsorbed?: () => void;
  /**
   * A success ends the outage only once the last failure is this old (ms; default 0): a statement
   * that still got through while the server was going away is not a recovery.
   */
  settleMs?: number;
  now?: () => number;
}

/**
 * Whether a dependency (the database, Redis) is reachable, as the process last saw it, so that an
 * outage is reported once when it starts and once when it ends, instead of once per failed call:
 * the first failure reports it, later ones are absorbed (counted), the first success after it
 * (and at least `settleMs` after the last failure) reports the recovery with the outage's length
 * and count.
 */
export class DependencyHealth {
  private downSince: number | undefined;
  private lastFailure = 0;
  private absorbedCount = 0;
  /** True while the outage's own report is made: it is not one to absorb. */
  private reporting = false;
  private readonly now: () => number;

  constructor(
    readonly dependency: string,
    private readonly opts: DependencyHealthOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  get available(): boolean {
    return this.downSince === undefined;
  }

  /** The dependency could not be reached: starts an outage, or counts one more failure of it. */
  failed(error: unknown): void {
    this.lastFailure = this.now();
    if (this.downSince !== undefined) {
      this.absorb();
      return;
    }
    this.downSince = this.lastFailure;
    this.absorbedCount = 0;
    this.reporting = true;
    try {
      this.opts.onChange({
        dependency: this.dependency,
        available: false,
        error: error instanceof Error ? error : new Error(String(error)),
      });
    } finally {
      this.reporting = false;
    }
  }

  /** The dependency answered: ends the outage, if there is one. */
  succeeded(): void {
    if (this.downSince === undefined) return;
    const now = this.now();
    if (now - this.lastFailure < (this.opts.settleMs ?? 0)) return;
    const downMs = now - this.downSince;
    this.downSince = undefined;
    this.opts.onChange({ dependency: this.dependency, available: true, downMs, absorbed: this.absorbedCount });
  }

  /**
   * During an outage: counts a failure someone would otherwise report (a log line per failed call)
   * as one of the outage's, and returns true: the caller then stays silent. Otherwise false.
   */
  absorb(): boolean {
    if (this.downSince === undefined || this.reporting) return false;
    this.absorbedCount += 1;
    this.opts.onAbsorbed?.();
    return true;
  }
}
