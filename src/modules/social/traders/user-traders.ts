import type { PrismaClient } from '../../../db/generated/client';

/**
 * A user's venue_a trader ids: the addresses of their verified polygon wallets
 * (provisioned, and imported ones whose owner signed a challenge), in the lower
 * case trader ids are stored in. An unverified import is nobody's identity yet.
 */
export async function userTraderIds(prisma: PrismaClient, userId: string): Promise<string[]> {
  const wallets = await prisma.wallet.findMany({
    where: { userId, chain: 'polygon', verification: 'verified' },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { address: true },
  });
  return [...new Set(wallets.map((w) => w.address.toLowerCase()))];
}
