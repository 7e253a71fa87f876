import type { Database } from '../../../src/db';
import { openSimulatedWorld } from '../../../src/modules/ingestion';
import { openTestDatabase } from '../../support/db';

// Production draws a random secret seed in each process; the processes of one deployment must
// still build one world (the same books and prices whichever replica answers).
describe('the simulated world across the processes of a deployment', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  it('with a shared seed, the first process records its seed and the next builds the same world', async () => {
    const first = await openSimulatedWorld(db.prisma, 1_111, { shareSeed: true });
    const second = await openSimulatedWorld(db.prisma, 2_222, { shareSeed: true });
    expect(second.seed).toBe(1_111);
    expect(second.coreEvents.map((e) => e.title)).toEqual(first.coreEvents.map((e) => e.title));
  });

  it('without it (development, tests), each process keeps the seed it was given', async () => {
    const other = await openSimulatedWorld(db.prisma, 3_333);
    expect(other.seed).toBe(3_333);
  });
});
