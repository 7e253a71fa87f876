import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { ConfigError, loadConfig, type AppConfig } from './config';
import { createLogger, type Logger } from './http/logger';
import { httpServerOptions } from './http/server-options';
import { startWaitingServer, type WaitingServer } from './http/waiting-server';
import { APP_LOAD_STEPS, loadInSteps } from './load-in-steps';
import { readRuntimeFile, removeRuntimeFile, writeRuntimeFile } from './runtime-file';
import { VERSION } from './version';

/** A module load step longer than this is logged at debug. */
const STEP_LOG_MS = 20;

type Services = typeof import('./services');
type Server = typeof import('./server');
type PrepareDatabase = typeof import('./prepare-database');

/** What `/health/ready` names until the app takes the port over. */
const STARTING = 'starting: loading the app, opening the database, start-up work';

/** Logs each start-up phase's duration at debug, and the total since the process began. */
function phaseClock(logger: Logger): (phase: string) => void {
  let last = performance.now();
  return (phase) => {
    const now = performance.now();
    logger.debug({ phase, ms: Math.round(now - last), sinceProcessStartMs: Math.round(now) }, 'start-up phase');
    last = now;
  };
}

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  // The embedded database admits one process: a second server on the same folder says who holds it.
  const owner = config.databaseUrl === undefined ? readRuntimeFile(config.dataDir) : null;
  if (owner) {
    process.stderr.write(
      `DATA_DIR ${config.dataDir} is in use by the server running as process ${owner.pid} at ${owner.url}; ` +
        'stop it, or start this one with another DATA_DIR or with DATABASE_URL\n',
    );
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  const phase = phaseClock(logger);
  phase('node and settings');
  if (config.devDefaults.length > 0) {
    logger.warn(
      { variables: config.devDefaults },
      'DEVELOPMENT DEFAULTS IN USE: these secrets fall back to fixed development values; set them before ' +
        'exposing this server',
    );
  }
  const listen = { port: config.port, host: config.host };
  // Only liveness needs nothing: the port answers `/health` 200 (and `/health/ready` 503, anything
  // else 503 with Retry-After) from here on, while the app loads, the database opens and start-up
  // work runs; the app takes the same socket over when it is built.
  const waiting = await startWaitingServer(listen, STARTING, VERSION, httpServerOptions(config));
  phase('listening (liveness only)');
  try {
    await startApp(config, logger, phase, waiting);
  } catch (err) {
    await waiting.close();
    throw err;
  }
}

async function startApp(
  config: AppConfig,
  logger: Logger,
  phase: (name: string) => void,
  waiting: WaitingServer,
): Promise<void> {
  // Loaded after listening, in steps (liveness answers between them): the module graph (GraphQL,
  // Prisma, the modules) is the largest part of a start.
  await loadInSteps(APP_LOAD_STEPS, require, (id, ms) => {
    if (ms > STEP_LOG_MS) logger.debug({ module: id, ms: Math.round(ms) }, 'start-up: loaded');
  });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { closeServices, createServices, embeddedTemplate, startBackground } = require('./services') as Services;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startServer } = require('./server') as Server;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { needsPreparing, prepareInChild } = require('./prepare-database') as PrepareDatabase;
  phase('modules loaded');
  // A database to migrate and seed is prepared in a child process, whose memory goes back when it exits.
  const template = embeddedTemplate(config);
  if (await needsPreparing(config, template)) {
    await prepareInChild(logger);
    phase('database migrated and seeded in a child process');
  }
  const services = await createServices(config, {
    logger,
    // MIGRATE_ON_START=off on an unmigrated database: liveness and readiness (503, with the reason)
    // are answered on the service's port until another process has migrated it.
    whileSchemaMissing: async (reason) => {
      waiting.setReason(reason);
      return async () => waiting.setReason(STARTING);
    },
  });
  if (!config.roles.workers) logger.info('WORKERS=off: an API-only process, running no exclusive background job');
  await startBackground(services);
  phase('background tasks started');
  const running = await startServer(services, { port: config.port, host: config.host }, { adopt: waiting });
  phase('app serving (schema, routers)');
  const embedded = config.databaseUrl === undefined;
  if (embedded) writeRuntimeFile(config.dataDir, { pid: process.pid, url: running.url });
  // The first start of the day with these settings leaves its ready database for the next new DATA_DIR.
  // (A database prepared in a child process was saved there.)
  if (template && services.db.createdEmpty && services.db.archiveTo && !existsSync(template)) {
    services.db.archiveTo(template).then(
      () => logger.info({ template }, 'saved the ready embedded database for new data folders'),
      (err: unknown) => logger.warn({ err, template }, 'could not save the ready embedded database'),
    );
  }
  logger.info(
    { url: running.url, database: services.db.kind, infra: services.infra.kind, graphiql: `${running.url}/graphql` },
    'listening',
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    try {
      // Readiness turns 503 first; requests are still served while load balancers take this process out.
      services.markShuttingDown();
      if (config.shutdownDrainMs > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
      await running.stop();
      await closeServices(services);
      if (embedded) removeRuntimeFile(config.dataDir);
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'unclean shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
