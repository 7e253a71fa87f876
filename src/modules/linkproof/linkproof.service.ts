import type { PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import { canonicalAddress } from '../wallets/chain-address';
import type { IdentityProvider } from './identity.client';
import type { ProofLinkView, WalletProofView } from './linkproof.models';

/**
 * Link proof: a person proves to the identity provider that they control a
 * Solana wallet. The caller's *primary* Solana wallet is the one the service
 * provisioned for them, else the oldest one they imported.
 */
export class LinkProofService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly provider: IdentityProvider,
    private readonly now: () => number = Date.now,
  ) {}

  /** A deep link for the caller's primary Solana wallet: 400 without one, 503 when the provider fails. */
  async proofLink(userId: string): Promise<ProofLinkView> {
    const wallet = await this.primarySolanaWallet(userId);
    if (!wallet)
      throw AppError.badRequest('wallet', 'you have no Solana wallet (onboard with /auth/setup or import one)');
    let link: { url: string; expiresAt: Date };
    try {
      link = await this.provider.createProofLink({ userId, wallet });
    } catch (err) {
      // The interface declares the identity provider's failure here as 503.
      if (err instanceof AppError && err.code === 'upstream_error') throw AppError.unavailable(err.message);
      throw err;
    }
    return { wallet, chain: 'solana', url: link.url, expiresAt: link.expiresAt };
  }

  /** The proof status of any Solana address: 400 when it is not one, 502 when the provider fails. */
  async verify(address: string): Promise<WalletProofView> {
    return this.check(canonicalAddress('solana', address, 'wallet'));
  }

  /** The proof status of the caller's primary Solana wallet (`no_wallet` without one). */
  async status(userId: string): Promise<WalletProofView> {
    const wallet = await this.primarySolanaWallet(userId);
    if (!wallet)
      return {
        wallet: null,
        chain: 'solana',
        status: 'no_wallet',
        verified: false,
        verifiedAt: null,
        checkedAt: new Date(this.now()),
      };
    return this.check(wallet);
  }

  private async check(wallet: string): Promise<WalletProofView> {
    const p = await this.provider.proofStatus(wallet);
    return {
      wallet,
      chain: 'solana',
      status: p.status,
      verified: p.status === 'verified',
      verifiedAt: p.verifiedAt,
      checkedAt: new Date(this.now()),
    };
  }

  private async primarySolanaWallet(userId: string): Promise<string | null> {
    const w = await this.prisma.wallet.findFirst({
      where: { userId, chain: 'solana' },
      // `provisioned` sorts before `imported` in the enum's declaration order.
      orderBy: [{ kind: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }],
      select: { address: true },
    });
    return w?.address ?? null;
  }
}
