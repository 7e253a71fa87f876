import type { PrismaClient } from '../../db/generated/client';
import { createSimulatedWorld, type SimulatedWorld } from '../../venues';

const KEY = 'sim.anchor';
const SEED_KEY = 'sim.seed';

/**
 * The simulated world lays its calendar out from an anchor month. The first
 * process to meet a database records the anchor there, so every later process
 * and every re-seed builds the same events (stable ids) whatever the date.
 * With `shareSeed` (production, where each process draws a random secret seed)
 * the first process records its seed too, and every process builds that world:
 * the same books and prices whichever replica answers.
 */
export async function openSimulatedWorld(
  prisma: PrismaClient,
  seed: number,
  { shareSeed = false, now = Date.now() }: { shareSeed?: boolean; now?: number } = {},
): Promise<SimulatedWorld> {
  const anchor = Number(await firstWriteWins(prisma, KEY, String(now)));
  const worldSeed = shareSeed ? Number(await firstWriteWins(prisma, SEED_KEY, String(seed))) : seed;
  return createSimulatedWorld({ seed: worldSeed, anchor });
}

/** The setting's stored value; when there is none, `value`, stored (of concurrent first writers, the first wins). */
async function firstWriteWins(prisma: PrismaClient, key: string, value: string): Promise<string> {
  const saved = await prisma.appSetting.findUnique({ where: { key } });
  if (saved) return saved.value;
  await prisma.appSetting.createMany({ data: [{ key, value }], skipDuplicates: true });
  return (await prisma.appSetting.findUniqueOrThrow({ where: { key } })).value;
}
