import { defineSettings, prose, setting } from '../../settings';

/** Live execution: the execution service, how a live order is followed and reconciled, and simulations. */
export const executionSettings = defineSettings({
  name: 'execution',
  title: 'Execution',
  variables: {
    EXECUTION_SERVICE_URL: setting.url(['http:', 'https:'], 'venue_a live execution (unset: 503)'),
    EXECUTION_POLL_MS: setting.integer(
      10,
      60_000,
      500,
      'how often a pending venue_a live order is asked for at the execution service',
    ),
    EXECUTION_WAIT_MS: setting.integer(100, 55_000, 30_000, 'how long before its stream ends `outcome_unknown`'),
    EXECUTION_RECONCILE_MS: setting.integer(
      0,
      3_600_000,
      15_000,
      prose`how often the reconciler asks the venues about live orders whose outcome is unknown or whose process died
        (0 = never); also once when a process takes its lease
        ([reconciling](cost-routing-execution.md#reconciling-live-orders))`,
    ),
    EXECUTION_STALE_ORDER_MS: setting.integer(
      1_000,
      3_600_000,
      30_000,
      prose`how long a live order no runner follows (its process is gone, or its venue_b answer was lost:
        \`outcome_unknown\`) stays \`pending\`/\`submitted\` before the reconciler asks its venue (longer than a
        placement takes, so an order still on its way is not taken for "never placed")`,
    ),
    SIMULATION_RATE_LIMIT: setting.integer(
      1,
      1_000_000,
      120,
      prose`simulated orders of a bearer caller (stored in the paper account) and position sells per minute per
        user; anonymous simulations store nothing and are not counted`,
    ),
  },
  map: (v) => ({
    executionServiceUrl: v.EXECUTION_SERVICE_URL,
    /**
     * How a live venue_a order is followed at the execution service (poll interval, longest wait), how
     * often the reconciler runs, and how long a live order no runner follows (its process is gone, or
     * its venue_b answer was lost) stays open before the reconciler asks its venue (`staleOrderMs`).
     */
    trading: {
      execution: {
        pollMs: v.EXECUTION_POLL_MS,
        waitMs: v.EXECUTION_WAIT_MS,
        reconcileMs: v.EXECUTION_RECONCILE_MS,
        staleOrderMs: v.EXECUTION_STALE_ORDER_MS,
      },
    },
    /** Per user: simulated orders of a bearer caller (stored in the paper account), position sells included. */
    limits: { simulationsPerMinute: v.SIMULATION_RATE_LIMIT },
  }),
});
