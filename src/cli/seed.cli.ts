import 'reflect-metadata';
import { loadConfig } from '../config';
import { createInfra } from '../infra';
import { CATALOG_CHANGED_TOPIC } from '../modules/events';
import { CatalogService, openSimulatedWorld, type SyncReport } from '../modules/ingestion';
import { worldKeysOf } from '../venues';
import { runCli } from './cli-args';
import { onServerOrDatabase } from './cli-backend';

// npm run -s seed: loads the deterministic demo world (idempotent), through the running server
// when there is one (see cli-backend).
runCli(async () => {
  const config = loadConfig();
  const out = await onServerOrDatabase(config, {
    server: {
      query: 'mutation { syncCatalog { events markets } }',
      answer: (data: { syncCatalog: Pick<SyncReport, 'events' | 'markets'> }) => data.syncCatalog,
    },
    database: async (db) => {
      if (Object.values(config.venues.source).includes('live')) {
        // A live venue's catalog needs its HTTP client and the catalog job: the server's to run.
        throw new Error('a live venue is configured: the server syncs its catalog (at start, or syncCatalog)');
      }
      // Servers sharing Redis drop their memoized catalog reads when told.
      const infra = await createInfra({ redisUrl: config.redisUrl, keyPrefix: config.redisKeyPrefix });
      try {
        const catalog = new CatalogService(db.prisma, () =>
          infra.pubsub.publish(CATALOG_CHANGED_TOPIC, { at: Date.now() }),
        );
        const world = await openSimulatedWorld(db.prisma, worldKeysOf(config.sim), {
          shareSecret: config.sim.shareSecret,
        });
        const { events, markets } = await catalog.sync(world);
        // What the server path selects: both paths print the same report.
        return { events, markets };
      } finally {
        await infra.close();
      }
    },
  });
  process.stdout.write(`${JSON.stringify(out)}\n`);
});
