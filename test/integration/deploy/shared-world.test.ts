import type { Database } from '../../../src/db';
import { openSimulatedWorld } from '../../../src/modules/ingestion';
import { SecretKeys, SeedKeys } from '../../../src/venues';
import { openTestDatabase } from '../../support/db';

// Production without SIM_SECRET draws a random secret in each process; the processes of one
// deployment must still build one world (the same books and prices whichever replica answers).
describe('the simulated world across the processes of a deployment', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  it('with a shared secret, the first process records its secret and the next builds the same world', async () => {
    const mine = SecretKeys.random();
    const first = await openSimulatedWorld(db.prisma, mine, { shareSecret: true });
    const second = await openSimulatedWorld(db.prisma, SecretKeys.random(), { shareSecret: true });
    expect(first.fingerprint).toBe(mine.fingerprint);
    expect(second.fingerprint).toBe(mine.fingerprint);
    expect(second.coreEvents.map((e) => e.id)).toEqual(first.coreEvents.map((e) => e.id));
  });

  it('without it (SIM_SECRET set, development, tests), each process keeps the secret it was given', async () => {
    const given = new SeedKeys(3_333);
    const other = await openSimulatedWorld(db.prisma, given);
    expect(other.fingerprint).toBe(given.fingerprint);
    expect(other.fingerprint).not.toBe((await openSimulatedWorld(db.prisma, SecretKeys.random())).fingerprint);
  });
});
