import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineSettings, prose, setting } from '../settings';

/** Distinct statement texts each PostgreSQL connection prepares once, by default (`DATABASE_PREPARED_STATEMENTS`). */
export const DEFAULT_PREPARED_STATEMENTS = 1_000;

/** The database: PostgreSQL, or PGlite in a data folder (embedded mode), and its ready-database template. */
export const databaseSettings = defineSettings({
  name: 'database',
  title: 'Database',
  variables: {
    DATABASE_URL: setting.url(['postgres:', 'postgresql:'], {
      meaning: 'PostgreSQL URL (`?schema=NAME` selects a schema)',
      default: 'unset: PGlite',
      example: 'postgresql://postgres@127.0.0.1:5432/app',
    }),
    DATA_DIR: setting.textOr(
      '.data',
      prose`PGlite folder (embedded mode); a running embedded server records its address in
        \`DATA_DIR/server.json\` for the CLIs; a second server on the same folder exits with status 1, naming the
        process that holds it`,
    ),
    EMBEDDED_TEMPLATE_DIR: setting.text({
      meaning: prose`Embedded mode: the ready database a new \`DATA_DIR\` starts from (an archive of a data folder,
        migrated and seeded, keyed by the PGlite version, the migrations, the world (\`SIM_SEED\`, or a fingerprint
        of \`SIM_SECRET\`), \`SIM_BACKFILL_TRADES\` and the UTC day). The first start of a day with an empty folder
        seeds as usual and then writes it; later new folders start from it in a fraction of the time. \`off\`
        disables it. Not used with \`DATABASE_URL\`, a live venue, \`MIGRATE_ON_START=off\`,
        \`SEED_ON_START=off\` or a production secret drawn at start`,
      default: 'system temp folder + `/prediction-aggregator`',
      accepted: 'a folder, or `off`',
      example: '/tmp/prediction-aggregator',
    }),
    DATABASE_CONNECT_TIMEOUT_MS: setting.integer(
      100,
      120_000,
      5_000,
      prose`PostgreSQL: how long getting a connection may take (connecting, or waiting for one of the pool's)
        before the statement fails and the request is answered 503 \`unavailable\`
        ([failures](deployment.md#failures))`,
    ),
    DATABASE_STATEMENT_TIMEOUT_MS: setting.integer(
      0,
      3_600_000,
      30_000,
      prose`PostgreSQL: how long one statement may run (PostgreSQL's \`statement_timeout\`, waiting on a lock
        included) before the database cancels it and the request is answered 503 \`unavailable\` with
        \`Retry-After\`; \`0\`: no bound. It applies to the migrations a start runs too: raise it for a start that
        runs a long one`,
    ),
    DATABASE_PREPARED_STATEMENTS: setting.integer(
      0,
      100_000,
      DEFAULT_PREPARED_STATEMENTS,
      prose`PostgreSQL: how many distinct statement texts each connection prepares once (parsed and planned on
        first use, then run by name: on a stored order half of PostgreSQL's CPU was parsing and planning); others
        are parsed each time; \`0\`: none, for a connection pooler in transaction mode that does not carry
        prepared statements across its server connections`,
    ),
  },
  map: (v) => ({
    databaseUrl: v.DATABASE_URL,
    dataDir: v.DATA_DIR,
    /**
     * Where the embedded mode keeps its ready database (migrated and seeded, per day and world
     * settings), which a new DATA_DIR starts from; undefined = off.
     */
    embeddedTemplateDir:
      v.EMBEDDED_TEMPLATE_DIR === 'off'
        ? undefined
        : (v.EMBEDDED_TEMPLATE_DIR ?? join(tmpdir(), 'prediction-aggregator')),
    /**
     * PostgreSQL: how long getting a connection may take (connecting, or waiting for a pooled one)
     * before the statement fails and the request is answered 503 (ms).
     */
    databaseConnectTimeoutMs: v.DATABASE_CONNECT_TIMEOUT_MS,
    /** PostgreSQL: PostgreSQL's `statement_timeout` for every connection (ms); 0: none. */
    databaseStatementTimeoutMs: v.DATABASE_STATEMENT_TIMEOUT_MS,
    /** PostgreSQL: distinct statement texts each connection prepares once; 0: none. */
    databasePreparedStatements: v.DATABASE_PREPARED_STATEMENTS,
  }),
});
