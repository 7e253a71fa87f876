import type { PrismaClient } from '../../db/generated/client';
import type { WalletsService } from '../wallets';

/** A user as the account endpoints show it (wallets are loaded beside it). */
export interface AccountView {
  userId: string;
  /** When /auth/setup (or a first wallet import) created the user; null before. */
  createdAt: Date | null;
}

/**
 * Users: the bearer token's subject is the user id. Onboarding creates the
 * user row and its provisioned wallets; both steps are idempotent, so repeated
 * or concurrent calls converge on one user with one wallet per chain.
 */
export class AccountsService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly wallets: WalletsService,
  ) {}

  /** Creates the user and the provisioned wallets it lacks; `created` tells whether the user is new. */
  async setup(userId: string): Promise<AccountView & { created: boolean }> {
    const { count } = await this.prisma.user.createMany({ data: [{ id: userId }], skipDuplicates: true });
    await this.wallets.ensureProvisioned(userId);
    return { ...(await this.get(userId)), created: count === 1 };
  }

  async get(userId: string): Promise<AccountView> {
    const u = await this.prisma.user.findUnique({ where: { id: userId }, select: { createdAt: true } });
    return { userId, createdAt: u?.createdAt ?? null };
  }
}
