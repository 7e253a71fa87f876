import { defineSettings, prose, setting } from '../settings';

/** This process among several sharing one database and Redis: its roles, its leases and its heartbeat. */
export const rolesSettings = defineSettings({
  name: 'roles',
  title: 'Processes and roles',
  variables: {
    WORKERS: setting.choice(
      ['on', 'off'],
      'on',
      prose`\`on\`: this process competes for the exclusive background jobs (each runs under a lease in one process
        at a time); \`off\`: an API-only replica that runs none of them (per-process work, such as its caches,
        search index and usage counts, still runs)`,
    ),
    MIGRATE_ON_START: setting.choice(
      ['on', 'off'],
      'on',
      prose`apply pending migrations at start. \`off\`: applies none; on a PostgreSQL database without the schema
        the process answers \`/health\` and waits (\`/health/ready\` 503 naming the migrations) until another process
        migrates it; embedded, it refuses to start`,
    ),
    SEED_ON_START: setting.choice(
      ['on', 'off'],
      'on',
      'seed an empty database with the demo world at start; `off`: leaves it to another process or `npm run seed`',
    ),
    LEASE_TTL_MS: setting.integer(
      1_000,
      600_000,
      15_000,
      prose`how long a job's lease outlives its holder: a survivor takes the jobs of a process that died within
        this (renewed every third of it; Redis leases only: a PostgreSQL advisory lock ends with its session, and
        embedded has one process)`,
    ),
    PROCESS_HEARTBEAT_MS: setting.integer(
      100,
      60_000,
      1_000,
      prose`how often this process renews its owner row in the database (one statement per beat); what it claims
        (in-flight \`Idempotency-Key\`s, withdrawal dispatch claims, live orders) names it
        ([a process killed](deployment.md#a-process-killed))`,
    ),
    PROCESS_LEASE_MS: setting.integer(300, 600_000, 3_000, {
      meaning: prose`how far each beat reaches: a process whose lease lapsed counts as gone, and the next request or
        job takes over what it claimed (a killed process's keys are 409 for at most this)`,
      accepted: 'integer 300–600000, at least twice `PROCESS_HEARTBEAT_MS`',
    }),
  },
  check(v, ctx) {
    // A lease must outlast a late beat, or a live process would look gone and lose what it claimed.
    if (v.PROCESS_LEASE_MS < 2 * v.PROCESS_HEARTBEAT_MS) {
      ctx.problem('PROCESS_LEASE_MS: must be at least twice PROCESS_HEARTBEAT_MS');
    }
  },
  map: (v) => ({
    /**
     * This process's roles among several: whether it runs the exclusive background jobs (each under a
     * lease, so one process at a time runs it; `false`: an API-only replica), whether it applies pending
     * migrations and seeds an empty database at start, and how long a job's lease outlives its holder
     * (a survivor takes a dead holder's jobs over after at most this; renewed every third of it).
     */
    roles: {
      workers: v.WORKERS === 'on',
      migrateOnStart: v.MIGRATE_ON_START === 'on',
      seedOnStart: v.SEED_ON_START === 'on',
      leaseTtlMs: v.LEASE_TTL_MS,
    },
    /**
     * This process's liveness among the processes sharing the database: how often it renews its lease
     * (ms) and how far each renewal reaches (ms). Work a process claims (an in-flight Idempotency-Key, a
     * withdrawal's dispatch, a live order) is taken over once its lease lapsed.
     */
    processes: { heartbeatMs: v.PROCESS_HEARTBEAT_MS, leaseMs: v.PROCESS_LEASE_MS },
  }),
});
