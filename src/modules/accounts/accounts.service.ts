import type { PrismaClient } from '../../db/generated/client';
import type { WalletsService } from '../wallets';

/** A user as the account endpoints show it (wallets are loaded beside it). */
export interface AccountView {
  userId: string;
  /** When /auth/setup (or a first wallet import) created the user; null before. */
  createdAt: Date | null;
}

/**
 * Users: the bearer token's subject is the user id. Onboarding asks the wallet
 * provider first (idempotent, nothing stored yet), then creates the user row
 * and its provisioned wallets in one transaction: a provider failure leaves no
 * half-onboarded user, and repeated or concurrent calls converge on one user
 * with one wallet per chain.
 */
export class AccountsService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly wallets: WalletsService,
  ) {}

  /**
   * Creates the user and the provisioned wallets it lacks. `created` is true
   * for the one call that completed onboarding (wrote the user or its missing
   * wallets), false when everything was there already.
   */
  async setup(userId: string): Promise<AccountView & { created: boolean }> {
    const wallets = await this.wallets.provisionMissing(userId);
    const created = await this.prisma.$transaction(async (tx) => {
      const { count } = await tx.user.createMany({ data: [{ id: userId }], skipDuplicates: true });
      const stored = await this.wallets.storeProvisioned(tx, userId, wallets);
      return count === 1 || stored > 0;
    });
    return { ...(await this.get(userId)), created };
  }

  async get(userId: string): Promise<AccountView> {
    const u = await this.prisma.user.findUnique({ where: { id: userId }, select: { createdAt: true } });
    return { userId, createdAt: u?.createdAt ?? null };
  }
}
