/**
 * Prisma Migrate, offline, through the wasm schema engine (the Prisma CLI's migrate
 * commands need a native engine download).
 *
 *   npm run db:migrate:create -- NAME [--draft]   new migration from prisma/schema.prisma
 *   npm run db:migrate:check                      exit 1 when schema.prisma and migrations drift
 *   npm run db:migrate:deploy                     apply pending migrations to DATABASE_URL,
 *                                                 else to the PGlite in DATA_DIR
 *
 * `deploy` reads DATABASE_URL (PostgreSQL; optional DATABASE_SCHEMA), else DATA_DIR (PGlite
 * folder, `.data` by default as for the server). The server also applies pending
 * migrations at start (openDatabase).
 */
import { relative } from 'node:path';
import { openDatabase } from '../src/db/database';
import { checkMigrations, createMigration } from '../src/db/migrations';
import { PROJECT_PGLITE_TEMPLATE_DIR, PROJECT_PRISMA_PATHS } from '../src/db/project-paths';

/** Scratch and shadow PGlites load a cached initialised cluster (faster). */
const TOOL_OPTIONS = { pgliteTemplateDir: PROJECT_PGLITE_TEMPLATE_DIR };

const USAGE = 'usage: migrate.ts create NAME [--draft] | check | deploy';

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

function fail(line: string): void {
  process.stderr.write(`${line}\n`);
}

function show(path: string): string {
  return relative(process.cwd(), path) || path;
}

async function create(args: string[]): Promise<number> {
  const draft = args.includes('--draft');
  const name = args.find((arg) => !arg.startsWith('--'));
  if (!name) {
    fail(`missing migration NAME\n${USAGE}`);
    return 2;
  }
  const created = await createMigration(name, { ...TOOL_OPTIONS, draft });
  if (!created) {
    out('No changes in prisma/schema.prisma since the last migration: nothing created.');
    return 0;
  }
  out(`Created ${show(created.file)}`);
  return 0;
}

async function check(): Promise<number> {
  const result = await checkMigrations(TOOL_OPTIONS);
  if (result.inSync) {
    out(`Migrations are in sync with ${show(PROJECT_PRISMA_PATHS.schemaFile)}.`);
    return 0;
  }
  fail(
    `Drift: ${show(PROJECT_PRISMA_PATHS.schemaFile)} differs from what the migrations in ` +
      `${show(PROJECT_PRISMA_PATHS.migrationsDir)} produce.\n` +
      'Create a migration with `npm run db:migrate:create -- NAME`. Missing SQL:\n\n' +
      result.script,
  );
  return 1;
}

async function deploy(): Promise<number> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  // Same default as the server's config (src/config.ts): PGlite in .data.
  const dataDir = databaseUrl ? undefined : process.env.DATA_DIR || '.data';
  out(databaseUrl ? `Deploying to PostgreSQL (${new URL(databaseUrl).host})` : `Deploying to PGlite in ${dataDir}`);
  const db = await openDatabase({
    databaseUrl,
    dataDir,
    schema: process.env.DATABASE_SCHEMA || undefined,
    poolSize: 1,
    onMigrationsApplied: (names) => {
      out(names.length ? `Applied: ${names.join(', ')}` : 'No pending migrations.');
    },
  });
  await db.close();
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  switch (command) {
    case 'create':
      return create(args);
    case 'check':
      return check();
    case 'deploy':
      return deploy();
    default:
      fail(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    fail(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
