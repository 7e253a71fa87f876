/**
 * Embedded PGlite specifics (whatever DATABASE_URL says): a persisted data folder
 * survives a reopen, and a custom schema is honoured.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../../src/db/database';
import { TEST_DATABASE_OPTIONS } from '../../support/db';

let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'db-pglite-test-'));
});

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

it('reopens a persisted data folder (parents created) with its data intact', async () => {
  const dataDir = join(tmp, 'missing', 'parents', 'pgdata');
  const applied: string[][] = [];
  const onMigrationsApplied = (names: string[]) => applied.push(names);

  const first = await openDatabase({ dataDir, onMigrationsApplied });
  expect(first.kind).toBe('pglite');
  await first.prisma.coreEvent.create({
    data: {
      id: 'persisted',
      slug: 'persisted',
      title: 'Survives a restart',
      category: 'science',
      sourceType: 'venue_a_only',
      activityScore: '42.000001',
      markets: {
        create: {
          id: 'pm',
          venue: 'venue_a',
          venueMarketId: 'vm',
          venueEventId: 've',
          title: 'M',
          status: 'resolved',
          lastPrice: '0.5',
        },
      },
    },
  });
  await first.close();
  await first.close(); // idempotent

  const second = await openDatabase({ dataDir, onMigrationsApplied });
  try {
    expect(applied[0].length).toBeGreaterThan(0);
    expect(applied[1]).toEqual([]);
    const event = await second.prisma.coreEvent.findUniqueOrThrow({
      where: { id: 'persisted' },
      include: { markets: true },
    });
    expect(event.title).toBe('Survives a restart');
    expect(event.activityScore.toFixed(6)).toBe('42.000001');
    expect(event.markets.map((m) => [m.id, m.lastPrice?.toFixed(6)])).toEqual([['pm', '0.500000']]);
    expect(second.hasVector).toBe(true);
  } finally {
    await second.close();
  }
});

it('uses the given schema on PGlite too', async () => {
  const db = await openDatabase({ ...TEST_DATABASE_OPTIONS, schema: 'app' });
  try {
    expect(db.schema).toBe('app');
    await db.prisma.ingestState.create({ data: { venue: 'venue_a' } });
    const tables = await db.prisma.$queryRaw<Array<{ table_schema: string }>>`
      select table_schema from information_schema.tables where table_name = 'IngestState'`;
    expect(tables).toEqual([{ table_schema: 'app' }]);
  } finally {
    await db.close();
  }
});

it('rejects an invalid schema name', async () => {
  await expect(openDatabase({ ...TEST_DATABASE_OPTIONS, schema: 'Bad"Name' })).rejects.toThrow(/Invalid schema name/);
});

describe('a new data folder started from a saved one (the embedded template)', () => {
  const event = {
    id: 'templated',
    slug: 'templated',
    title: 'Carried by the template',
    category: 'science',
    sourceType: 'venue_a_only',
    activityScore: '1.000000',
  } as const;

  it('starts an empty folder from the archive (no migration, same rows); a missing one changes nothing', async () => {
    const archive = join(tmp, 'templates', 'ready.tar');
    const origin = await openDatabase({ dataDir: join(tmp, 'origin') });
    expect(origin.createdEmpty).toBe(true);
    await origin.prisma.coreEvent.create({ data: event });
    await origin.archiveTo!(archive);
    await origin.close();

    const applied: string[][] = [];
    const copy = await openDatabase({
      dataDir: join(tmp, 'copy'),
      startFrom: archive,
      onMigrationsApplied: (names) => applied.push(names),
    });
    try {
      expect(copy.createdEmpty).toBe(false);
      expect(applied).toEqual([[]]);
      expect(await copy.prisma.coreEvent.findUnique({ where: { id: 'templated' } })).toMatchObject({
        title: 'Carried by the template',
      });
    } finally {
      await copy.close();
    }

    // An existing folder is never replaced by the archive; a missing archive means a new, empty database.
    const reopened = await openDatabase({ dataDir: join(tmp, 'origin'), startFrom: join(tmp, 'none.tar') });
    expect(reopened.createdEmpty).toBe(false);
    await reopened.close();
    const fresh = await openDatabase({ dataDir: join(tmp, 'fresh'), startFrom: join(tmp, 'none.tar') });
    try {
      expect(fresh.createdEmpty).toBe(true);
      expect(await fresh.prisma.coreEvent.count()).toBe(0);
    } finally {
      await fresh.close();
    }
  });

  it('opens a database whose recorded migration differs from its script (the engine decides)', async () => {
    const dataDir = join(tmp, 'edited');
    const db = await openDatabase({ dataDir });
    await db.prisma.$executeRawUnsafe(
      'UPDATE "_prisma_migrations" SET checksum = $1 ' +
        'WHERE migration_name = (SELECT min(migration_name) FROM "_prisma_migrations")',
      'edited',
    );
    await db.close();
    const again = await openDatabase({ dataDir });
    expect(await again.prisma.coreEvent.count()).toBe(0);
    await again.close();
  });
});
