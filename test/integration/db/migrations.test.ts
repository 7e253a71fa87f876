/**
 * Migrations through the wasm schema engine: deploy on both adapters (the back end of
 * the run: PGlite by default, PostgreSQL when DATABASE_URL is set), and the create /
 * check tooling (always on scratch PGlites).
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { openDatabase } from '../../../src/db/database';
import { checkMigrations, createMigration, deployMigrations } from '../../../src/db/migrations';
import { createPGlite, PGliteAdapterFactory } from '../../../src/db/pglite.adapter';
import { createPostgresPool, ensurePostgresSchema, PostgresAdapterFactory } from '../../../src/db/postgres.adapter';
import { PROJECT_PGLITE_TEMPLATE_DIR, PROJECT_PRISMA_PATHS, type PrismaPaths } from '../../../src/db/project-paths';
import { randomSchemaName, TEST_DATABASE_OPTIONS } from '../../support/db';

const databaseUrl = process.env.DATABASE_URL || undefined;
const templateDir = PROJECT_PGLITE_TEMPLATE_DIR;
let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'db-migrations-test-'));
});

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

/** A copy of the project's prisma/ folder to modify. */
function copyPrismaFolder(name: string): PrismaPaths {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  const paths = { schemaFile: join(dir, 'schema.prisma'), migrationsDir: join(dir, 'migrations') };
  cpSync(PROJECT_PRISMA_PATHS.schemaFile, paths.schemaFile);
  cpSync(PROJECT_PRISMA_PATHS.migrationsDir, paths.migrationsDir, { recursive: true });
  return paths;
}

function addMigration(paths: PrismaPaths, name: string, sql: string): void {
  mkdirSync(join(paths.migrationsDir, name));
  writeFileSync(join(paths.migrationsDir, name, 'migration.sql'), sql);
}

function projectMigrationNames(): string[] {
  return readdirSync(PROJECT_PRISMA_PATHS.migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** A bare back end of the run's kind: an adapter factory and raw SQL. */
interface Backend {
  factory: SqlMigrationAwareDriverAdapterFactory;
  query<T>(sql: string): Promise<T[]>;
  close(): Promise<void>;
}

async function openBackend(): Promise<Backend> {
  if (!databaseUrl) {
    const pglite = await createPGlite({ templateDir });
    return {
      factory: new PGliteAdapterFactory(pglite, { templateDir }),
      query: async <T>(sql: string) => (await pglite.query<T>(sql)).rows,
      close: () => pglite.close(),
    };
  }
  const target = createPostgresPool({ databaseUrl, schema: randomSchemaName(), poolSize: 1 }); // see migratePostgres
  await ensurePostgresSchema(target.pool, target.schema);
  return {
    factory: new PostgresAdapterFactory(target),
    query: async <T>(sql: string) => (await target.pool.query(sql)).rows as T[],
    close: async () => {
      await target.pool.query(`DROP SCHEMA "${target.schema}" CASCADE`);
      await target.pool.end();
    },
  };
}

describe('deploy', () => {
  it('applies all migrations on a fresh database, then nothing on the next open', async () => {
    const opened: string[][] = [];
    const options = databaseUrl
      ? { ...TEST_DATABASE_OPTIONS, databaseUrl, schema: randomSchemaName() }
      : { ...TEST_DATABASE_OPTIONS, dataDir: join(tmp, 'idempotent', 'data') };
    const onMigrationsApplied = (names: string[]) => opened.push(names);
    const first = await openDatabase({ ...options, onMigrationsApplied });
    await first.close();
    const second = await openDatabase({ ...options, onMigrationsApplied });
    try {
      expect(opened).toEqual([projectMigrationNames(), []]);
      const rows = await second.prisma.$queryRaw<Array<{ n: bigint }>>`select count(*) as n from _prisma_migrations`;
      expect(Number(rows[0].n)).toBe(projectMigrationNames().length);
    } finally {
      if (databaseUrl) await second.prisma.$executeRawUnsafe(`DROP SCHEMA "${second.schema}" CASCADE`);
      await second.close();
    }
  });

  it('runs a whole script at once (DO blocks) and never records a failed migration as applied', async () => {
    const paths = copyPrismaFolder('failing');
    addMigration(
      paths,
      '29990101000000_do_block',
      `DO $$ BEGIN
         EXECUTE 'CREATE TABLE "FromDoBlock" (note TEXT DEFAULT ''a;b'')';
       END $$;
       INSERT INTO "FromDoBlock" DEFAULT VALUES;`,
    );
    addMigration(paths, '29990102000000_failing', 'CREATE TABLE "Partial" (id INT);\nSELECT 1 / 0;');
    const backend = await openBackend();
    try {
      await expect(deployMigrations(backend.factory, paths)).rejects.toThrow(/division by zero/);
      const rows = await backend.query<{ migration_name: string; finished_at: Date | null }>(
        'select migration_name, finished_at from _prisma_migrations order by migration_name',
      );
      const status = Object.fromEntries(rows.map((row) => [row.migration_name, row.finished_at !== null]));
      expect(status).toMatchObject({ '29990101000000_do_block': true, '29990102000000_failing': false });
      expect(await backend.query('select note from "FromDoBlock"')).toEqual([{ note: 'a;b' }]);
      // The failed script ran in one implicit transaction: nothing of it remains.
      expect(await backend.query(`select 1 from information_schema.tables where table_name = 'Partial'`)).toEqual([]);
      // Deploy refuses to go on until the failure is resolved.
      await expect(deployMigrations(backend.factory, paths)).rejects.toThrow(/failed/i);
    } finally {
      await backend.close();
    }
  });
});

describe('create and check', () => {
  it('reports the project migrations in sync with schema.prisma', async () => {
    await expect(checkMigrations({ pgliteTemplateDir: templateDir })).resolves.toEqual({ inSync: true, script: '' });
  });

  it('detects drift, creates the missing migration, then is in sync', async () => {
    const paths = copyPrismaFolder('drift');
    const schema = readFileSync(paths.schemaFile, 'utf8');
    writeFileSync(paths.schemaFile, schema.replace(/(model IngestState \{\n)/, '$1  note String?\n'));
    const options = { paths, pgliteTemplateDir: templateDir };

    const drift = await checkMigrations(options);
    expect(drift.inSync).toBe(false);
    expect(drift.script).toMatch(/ALTER TABLE "IngestState" ADD COLUMN\s+"note" TEXT/);

    const created = await createMigration('add_note', options);
    expect(created?.name).toMatch(/^\d{14}_add_note$/);
    expect(readFileSync(created!.file, 'utf8')).toBe(created!.script);
    expect(created!.script).toMatch(/ADD COLUMN\s+"note" TEXT/);

    await expect(checkMigrations(options)).resolves.toEqual({ inSync: true, script: '' });
    await expect(createMigration('nothing', options)).resolves.toBeNull();
  });

  it('creates the first migration and the lock file in an empty folder', async () => {
    const dir = join(tmp, 'empty');
    mkdirSync(dir);
    const paths = { schemaFile: join(dir, 'schema.prisma'), migrationsDir: join(dir, 'migrations') };
    cpSync(PROJECT_PRISMA_PATHS.schemaFile, paths.schemaFile);
    await expect(checkMigrations({ paths })).rejects.toThrow(/migration_lock\.toml is missing/);

    const created = await createMigration('init', { paths, pgliteTemplateDir: templateDir });
    expect(created?.script).toContain('CREATE TABLE "CoreEvent"');
    expect(readFileSync(join(paths.migrationsDir, 'migration_lock.toml'), 'utf8')).toContain('provider = "postgresql"');
    await expect(checkMigrations({ paths, pgliteTemplateDir: templateDir })).resolves.toMatchObject({ inSync: true });
  });
});
