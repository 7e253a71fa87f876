import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { loadConfig } from './config';
import { createLogger } from './http/logger';
import { seedCatalog } from './modules/ingestion/catalog-seed';
import { SearchService } from './modules/search/search.service';
import type { PreparedDatabase } from './prepare-database';
import { closeServices, createServices, embeddedTemplate } from './services';

/**
 * The child process of prepare-database.ts: opens the configured database as the server would
 * (migrating it), seeds the simulated world's catalog and recent trades into it with the server's
 * own code, waits for the search vectors that follow, saves the embedded mode's ready database for
 * new data folders (the first start of the day), closes everything and reports. Errors end it with
 * exit code 1.
 */
async function prepare(): Promise<PreparedDatabase> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const services = await createServices(config, { logger });
  try {
    await seedCatalog(services);
    await services.get(SearchService).whenIdle();
    // The first start of the day with these settings leaves its ready database for the next new DATA_DIR.
    const template = embeddedTemplate(config);
    if (template && services.db.createdEmpty && services.db.archiveTo && !existsSync(template)) {
      await services.db
        .archiveTo(template)
        .catch((err: unknown) => logger.warn({ err, template }, 'could not save the ready embedded database'));
    }
    return { createdEmpty: services.db.createdEmpty };
  } finally {
    await closeServices(services);
  }
}

prepare().then(
  (result) => process.send?.(result, () => process.disconnect()),
  (err: unknown) => {
    process.stderr.write(
      `preparing the database: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 1;
  },
);
