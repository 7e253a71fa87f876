import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { ConfigError, loadConfig, type AppConfig } from './config';
import { createLogger } from './http/logger';
import { startWaitingServer } from './http/waiting-server';
import { readRuntimeFile, removeRuntimeFile, writeRuntimeFile } from './runtime-file';
import { startServer } from './server';
import { closeServices, createServices, embeddedTemplate, startBackground } from './services';
import { VERSION } from './version';

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
  if (config.devDefaults.length > 0) {
    logger.warn(
      { variables: config.devDefaults },
      'DEVELOPMENT DEFAULTS IN USE: these secrets fall back to fixed development values; set them before ' +
        'exposing this server',
    );
  }
  const listen = { port: config.port, host: config.host };
  const services = await createServices(config, {
    logger,
    // MIGRATE_ON_START=off on an unmigrated database: answer liveness and readiness (503, with the reason)
    // on the service's port until another process has migrated it.
    whileSchemaMissing: (reason) => startWaitingServer(listen, reason, VERSION),
  });
  if (!config.roles.workers) logger.info('WORKERS=off: an API-only process, running no exclusive background job');
  await startBackground(services);
  const running = await startServer(services, listen);
  const embedded = config.databaseUrl === undefined;
  if (embedded) writeRuntimeFile(config.dataDir, { pid: process.pid, url: running.url });
  // The first start of the day with these settings leaves its ready database for the next new DATA_DIR.
  const template = embeddedTemplate(config);
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
