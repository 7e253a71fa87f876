import type { PrismaClient } from '../../db/generated/client';
import { createSimulatedWorld, SecretKeys, type SimulatedWorld, type WorldKeys } from '../../venues';

const KEY = 'sim.anchor';
const SECRET_KEY = 'sim.secret';

/**
 * The simulated world lays its calendar out from an anchor month. The first
 * process to meet a database records the anchor there, so every later process
 * and every re-seed builds the same events (stable ids) whatever the date.
 * With `shareSecret` (production without SIM_SECRET, where each process draws
 * a random secret) the first process records its secret too, and every process
 * builds that world: the same books and prices whichever replica answers. With
 * SIM_SECRET set the processes share it through their settings and nothing
 * secret is stored.
 */
export async function openSimulatedWorld(
  prisma: PrismaClient,
  keys: WorldKeys,
  { shareSecret = false, now = Date.now() }: { shareSecret?: boolean; now?: number } = {},
): Promise<SimulatedWorld> {
  const anchor = Number(await firstWriteWins(prisma, KEY, String(now)));
  if (!shareSecret) return createSimulatedWorld({ keys, anchor });
  if (!(keys instanceof SecretKeys)) throw new Error('only a secret world shares its secret');
  const shared = await firstWriteWins(prisma, SECRET_KEY, keys.exportHex());
  return createSimulatedWorld({ keys: new SecretKeys(Buffer.from(shared, 'hex')), anchor });
}

/** The setting's stored value; when there is none, `value`, stored (of concurrent first writers, the first wins). */
async function firstWriteWins(prisma: PrismaClient, key: string, value: string): Promise<string> {
  const saved = await prisma.appSetting.findUnique({ where: { key } });
  if (saved) return saved.value;
  await prisma.appSetting.createMany({ data: [{ key, value }], skipDuplicates: true });
  return (await prisma.appSetting.findUniqueOrThrow({ where: { key } })).value;
}
