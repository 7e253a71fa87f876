import 'reflect-metadata';
import { loadConfig } from '../config';
import { openDatabase } from '../db';
import { createInfra } from '../infra';
import { CATALOG_CHANGED_TOPIC } from '../modules/events';
import { CatalogService, openSimulatedWorld } from '../modules/ingestion';
import { readRuntimeFile } from '../runtime-file';
import { runCli } from './cli-args';

// npm run -s seed: loads the deterministic demo world (idempotent).
// With the embedded database and a server running on it, the server does the
// work (PGlite admits one process); otherwise the CLI opens the database itself.
runCli(async () => {
  const config = loadConfig();
  const running = config.databaseUrl === undefined ? readRuntimeFile(config.dataDir) : null;
  if (running) {
    const res = await fetch(`${running.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': config.tokens.admin },
      body: JSON.stringify({ query: 'mutation { syncCatalog { events markets } }' }),
    });
    const body = (await res.json()) as { data?: { syncCatalog: unknown }; errors?: { message: string }[] };
    if (!body.data) throw new Error(`the running server refused: ${body.errors?.[0]?.message ?? res.status}`);
    process.stdout.write(`${JSON.stringify({ via: 'server', ...(body.data.syncCatalog as object) })}\n`);
    return;
  }
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
  });
  // Servers sharing Redis drop their memoized catalog reads when told.
  const infra = await createInfra({ redisUrl: config.redisUrl, keyPrefix: config.redisKeyPrefix });
  try {
    const catalog = new CatalogService(db.prisma, () =>
      infra.pubsub.publish(CATALOG_CHANGED_TOPIC, { at: Date.now() }),
    );
    const report = await catalog.sync(await openSimulatedWorld(db.prisma, config.sim.seed));
    process.stdout.write(`${JSON.stringify({ via: 'database', ...report })}\n`);
  } finally {
    await infra.close();
    await db.close();
  }
});
