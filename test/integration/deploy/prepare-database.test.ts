import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../src/config';
import { openDatabase } from '../../../src/db';
import { createLogger } from '../../../src/http/logger';
import { needsPreparing, prepareInChild } from '../../../src/prepare-database';

/**
 * A new database is migrated and seeded in a child process before the server opens it (its memory
 * goes back when the child exits): embedded here; the same code runs for PostgreSQL.
 */
describe('preparing a new embedded database in a child process', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'prepare-db-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** The environment of an embedded server on `dataDir` (no PostgreSQL, Redis or ready database). */
  function embeddedEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      EMBEDDED_TEMPLATE_DIR: 'off',
      SIM_BACKFILL_TRADES: '5',
      LOG_LEVEL: 'silent',
      ...extra,
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    return env;
  }

  it('is asked for a new folder only: migrated and seeded by the child, then left as it is', async () => {
    const dataDir = path.join(dir, 'data');
    const env = embeddedEnv(dataDir);
    const config = loadConfig(env);
    expect(await needsPreparing(config, undefined)).toBe(true);

    const prepared = await prepareInChild(createLogger('silent'), env);
    expect(prepared.createdEmpty).toBe(true);
    expect(await needsPreparing(config, undefined)).toBe(false);

    const db = await openDatabase({ dataDir, migrate: false });
    try {
      expect(await db.prisma.coreEvent.count()).toBeGreaterThan(0);
      expect(await db.prisma.trade.count()).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  }, 120_000);

  it('is not asked when the start neither seeds nor migrates (SEED_ON_START=off, MIGRATE_ON_START=off)', async () => {
    const dataDir = path.join(dir, 'unseeded');
    expect(await needsPreparing(loadConfig(embeddedEnv(dataDir, { SEED_ON_START: 'off' })), undefined)).toBe(false);
    expect(await needsPreparing(loadConfig(embeddedEnv(dataDir, { MIGRATE_ON_START: 'off' })), undefined)).toBe(false);
  });

  it('fails (and says so) when the child cannot prepare the database', async () => {
    // A data folder that cannot be created: a file stands where its parent would be.
    const blocked = path.join(dir, 'a-file');
    writeFileSync(blocked, 'not a folder');
    await expect(prepareInChild(createLogger('silent'), embeddedEnv(path.join(blocked, 'data')))).rejects.toThrow(
      /preparing the database failed/,
    );
  }, 120_000);
});
