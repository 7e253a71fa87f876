/**
 * The database layer against the back end of the run: PGlite by default, PostgreSQL
 * (a fresh schema) when DATABASE_URL is set.
 */
import { Prisma } from '../../../src/db/generated/client';
import type { Database } from '../../../src/db/database';
import { openTestDatabase } from '../../support/db';

let db: Database;

beforeAll(async () => {
  db = await openTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

beforeEach(async () => {
  await db.prisma.coreEvent.deleteMany();
});

/** Statements run by `action`, from the database's counter. */
async function countQueries(action: () => Promise<unknown>): Promise<number> {
  const before = db.queryCount();
  await action();
  return db.queryCount() - before;
}

function eventData(id: string): Prisma.CoreEventCreateInput {
  return { id, slug: `slug-${id}`, title: `Event ${id}`, category: 'politics', sourceType: 'matched' };
}

describe('openDatabase', () => {
  it('opens the expected back end, with the migrations applied', async () => {
    expect(db.kind).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    const rows = await db.prisma.$queryRaw<Array<{ migration_name: string; finished_at: Date | null }>>`
      select migration_name, finished_at from _prisma_migrations order by migration_name`;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.finished_at !== null)).toBe(true);
    expect(rows[0].migration_name).toMatch(/^\d{14}_init$/);
  });

  it('migrates a fresh schema even when another schema on the search path is up to date', async () => {
    // The test schema is migrated; a second fresh schema still gets its own tables, although the
    // search path also reaches the first one's (and public's) _prisma_migrations.
    const other = await openTestDatabase();
    try {
      expect(await other.prisma.coreEvent.count()).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('leaves no migration lock held by its connections (PostgreSQL)', async () => {
    if (db.kind !== 'postgres') return; // PGlite: one session, on which the lock is re-entrant
    const held = await db.prisma.$queryRaw<unknown[]>`
      select 1 from pg_locks where locktype = 'advisory' and objid = 72707369 and pid = pg_backend_pid()`;
    expect(held).toEqual([]);
  });

  it('reports pgvector as the server has it', async () => {
    if (db.kind === 'pglite') {
      expect(db.hasVector).toBe(true);
      const rows = await db.prisma.$queryRaw<unknown[]>`select 1 from pg_extension where extname = 'vector'`;
      expect(rows).toHaveLength(1);
    } else {
      const rows = await db.prisma.$queryRaw<unknown[]>`select 1 from pg_available_extensions where name = 'vector'`;
      expect(db.hasVector).toBe(rows.length > 0);
    }
  });
});

describe('Prisma round trip', () => {
  it('creates and finds a core event with its markets, decimals exact', async () => {
    const created = await db.prisma.coreEvent.create({
      data: {
        ...eventData('e1'),
        closeTime: new Date('2030-01-02T03:04:05.678Z'),
        activityScore: new Prisma.Decimal('12345678901234.123456'),
        markets: {
          create: [
            {
              id: 'm1',
              venue: 'venue_a',
              venueMarketId: 'vm-1',
              venueEventId: 've-1',
              title: 'Will it happen?',
              status: 'active',
              outcomes: ['Yes', 'No'],
              bestBid: '0.123456',
              bestAsk: new Prisma.Decimal('0.999999'),
              lastPrice: 0.1,
              volume: '99999999999999.999999',
              volume24h: '0.000001',
            },
          ],
        },
      },
    });
    expect(created.activityScore.toString()).toBe('12345678901234.123456');

    const found = await db.prisma.coreEvent.findUniqueOrThrow({
      where: { slug: 'slug-e1' },
      include: { markets: true },
    });
    expect(found.closeTime?.toISOString()).toBe('2030-01-02T03:04:05.678Z');
    expect(found.activityScore).toBeInstanceOf(Prisma.Decimal);
    expect(found.activityScore.toFixed(6)).toBe('12345678901234.123456');
    const [market] = found.markets;
    expect(market).toMatchObject({ id: 'm1', venue: 'venue_a', status: 'active', outcomes: ['Yes', 'No'] });
    expect(market.bestBid!.toFixed(6)).toBe('0.123456');
    expect(market.bestAsk!.toFixed(6)).toBe('0.999999');
    expect(market.lastPrice!.toFixed(6)).toBe('0.100000');
    expect(market.volume!.toFixed(6)).toBe('99999999999999.999999');
    expect(market.volume24h!.toFixed(6)).toBe('0.000001');
    expect(market.openInterest).toBeNull();

    // 0.1 + 0.2 summed by the database stays exact.
    await db.prisma.market.update({ where: { id: 'm1' }, data: { volume24h: '0.1' } });
    await db.prisma.market.update({ where: { id: 'm1' }, data: { volume24h: { increment: '0.2' } } });
    const updated = await db.prisma.market.findUniqueOrThrow({ where: { id: 'm1' } });
    expect(updated.volume24h!.toFixed(6)).toBe('0.300000');
  });

  it('stores BigInt counters and enforces unique keys', async () => {
    await db.prisma.ingestState.upsert({
      where: { venue: 'venue_b' },
      create: { venue: 'venue_b', tradesSeen: 9007199254740993n },
      update: { tradesSeen: 9007199254740993n },
    });
    const state = await db.prisma.ingestState.findUniqueOrThrow({ where: { venue: 'venue_b' } });
    expect(state.tradesSeen).toBe(9007199254740993n);

    await db.prisma.coreEvent.create({ data: eventData('dup') });
    await expect(db.prisma.coreEvent.create({ data: eventData('dup') })).rejects.toMatchObject({ code: 'P2002' });
  });

  it('cascades deletes from core events to markets', async () => {
    await db.prisma.coreEvent.create({
      data: {
        ...eventData('e2'),
        markets: {
          create: {
            id: 'm2',
            venue: 'venue_b',
            venueMarketId: 'vm-2',
            venueEventId: 've-2',
            title: 'M',
            status: 'closed',
          },
        },
      },
    });
    await db.prisma.coreEvent.delete({ where: { id: 'e2' } });
    expect(await db.prisma.market.count({ where: { id: 'm2' } })).toBe(0);
  });
});

describe('queryCount', () => {
  it('counts every statement Prisma runs', async () => {
    await db.prisma.coreEvent.create({ data: eventData('q1') });
    expect(await countQueries(() => db.prisma.coreEvent.findMany())).toBe(1);
    expect(await countQueries(() => db.prisma.coreEvent.count())).toBe(1);
    // One query per relation level (no N+1): events, then their markets.
    expect(await countQueries(() => db.prisma.coreEvent.findMany({ include: { markets: true } }))).toBe(2);
    expect(await countQueries(() => db.prisma.$queryRaw`select 1`)).toBe(1);
  });

  it('counts BEGIN and COMMIT/ROLLBACK of transactions alike on both back ends', async () => {
    const interactive = () =>
      db.prisma.$transaction(async (tx) => {
        await tx.coreEvent.count();
        await tx.market.count();
      });
    expect(await countQueries(interactive)).toBe(4);
    const batch = () => db.prisma.$transaction([db.prisma.coreEvent.count(), db.prisma.market.count()]);
    expect(await countQueries(batch)).toBe(4);
    const failing = () =>
      db.prisma
        .$transaction(async (tx) => {
          await tx.coreEvent.count();
          throw new Error('abort');
        })
        .catch(() => undefined);
    expect(await countQueries(failing)).toBe(3);
  });
});

describe('transactions', () => {
  it('commits an interactive transaction', async () => {
    await db.prisma.$transaction(async (tx) => {
      await tx.coreEvent.create({ data: eventData('t1') });
      await tx.coreEvent.update({ where: { id: 't1' }, data: { title: 'Renamed' } });
    });
    expect((await db.prisma.coreEvent.findUniqueOrThrow({ where: { id: 't1' } })).title).toBe('Renamed');
  });

  it('rolls back an interactive transaction that throws', async () => {
    await expect(
      db.prisma.$transaction(async (tx) => {
        await tx.coreEvent.create({ data: eventData('t2') });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await db.prisma.coreEvent.count({ where: { id: 't2' } })).toBe(0);
  });

  it('runs a batch transaction atomically', async () => {
    await expect(
      db.prisma.$transaction([
        db.prisma.coreEvent.create({ data: eventData('t3') }),
        db.prisma.coreEvent.create({ data: eventData('t3') }),
      ]),
    ).rejects.toMatchObject({ code: 'P2002' });
    expect(await db.prisma.coreEvent.count({ where: { id: 't3' } })).toBe(0);

    const [a, b] = await db.prisma.$transaction([
      db.prisma.coreEvent.create({ data: eventData('t4') }),
      db.prisma.coreEvent.create({ data: eventData('t5') }),
    ]);
    expect([a.id, b.id]).toEqual(['t4', 't5']);
  });
});
