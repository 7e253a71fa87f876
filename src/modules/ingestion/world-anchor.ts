import type { PrismaClient } from '../../db/generated/client';
import { createSimulatedWorld, type SimulatedWorld } from '../../venues';

const KEY = 'sim.anchor';

/**
 * The simulated world lays its calendar out from an anchor month. The first
 * process to meet a database records the anchor there, so every later process
 * and every re-seed builds the same events (stable ids) whatever the date.
 */
export async function openSimulatedWorld(
  prisma: PrismaClient,
  seed: number,
  now = Date.now(),
): Promise<SimulatedWorld> {
  const saved = await prisma.appSetting.findUnique({ where: { key: KEY } });
  let anchor = saved ? Number(saved.value) : now;
  if (!saved) {
    // Concurrent first starts: the first write wins and everyone reads it back.
    await prisma.appSetting.createMany({ data: [{ key: KEY, value: String(now) }], skipDuplicates: true });
    const winner = await prisma.appSetting.findUniqueOrThrow({ where: { key: KEY } });
    anchor = Number(winner.value);
  }
  return createSimulatedWorld({ seed, anchor });
}
