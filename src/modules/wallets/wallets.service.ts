import { randomBytes } from 'node:crypto';
import type { Prisma, PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import { microsToNumber, mulMicros } from '../../money';
import { LEDGER_CURRENCY, type LedgerService } from '../ledger';
import { canonicalAddress } from './chain-address';
import { CHAINS, type Chain } from './wallets.limits';
import { NATIVE_SYMBOL, type ChainBalancesClient } from './chain-balances.client';
import type { WalletProvider } from './wallet-provider.client';
import {
  WALLET_VIEW,
  type AggregateBalanceView,
  type ChainBalancesView,
  type WalletChallengeView,
  type WalletView,
} from './wallets.models';
import { challengeMessage, SIGNATURE_FORMATS, signatureProblem } from './ownership-proof';

/** A provisioned wallet the provider made, ready to store. */
export interface ProvisionedWallet {
  userId: string;
  chain: Chain;
  address: string;
  kind: 'provisioned';
  /** `userId:chain`: at most one provisioned wallet per chain and user. */
  provisionSlot: string;
  verification: 'verified';
  verifiedAt: Date;
  /** `chain:address`: the address is this user's (see {@link WalletsService}). */
  ownerSlot: string;
}

/** The slot a verified wallet holds: one verified owner per address. */
function ownerSlot(chain: Chain, address: string): string {
  return `${chain}:${address}`;
}

/** First half of the two-int advisory lock key that serialises imports and verifies of one address. */
const WALLET_ADDRESS_LOCK = 7_350_001;

/**
 * Holds the address's lock until the transaction ends: an import's check of the other users'
 * links and its insert, and a verify's takeover, each see the others' committed rows.
 */
async function lockAddress(tx: Prisma.TransactionClient, chain: Chain, address: string): Promise<void> {
  const key = `${chain}:${address}`;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${WALLET_ADDRESS_LOCK}::int, hashtext(${key}::text))`;
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'P2002';
}

/**
 * Users' wallets: the provisioned ones (one per chain, from the wallet provider)
 * and imported ones (external addresses the user links). An imported wallet is
 * `unverified` until its owner signs a one-time challenge with the address's key.
 * An address is verified by one user at most (the `ownerSlot` unique key, set on
 * verified and provisioned wallets). An address another user linked is 409 to import,
 * unless the caller claims it (`claim`): several users may then hold unverified
 * imports of it, and the first to verify takes it over: the others' unverified
 * imports are removed in the same transaction.
 */
export class WalletsService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly provider: WalletProvider,
    private readonly balancesClient: ChainBalancesClient,
    private readonly ledger: LedgerService,
    private readonly options: { challengeTtlMs: number } = { challengeTtlMs: 600_000 },
    private readonly now: () => number = Date.now,
  ) {}

  /** A user's wallets, oldest first. */
  list(userId: string): Promise<WalletView[]> {
    return this.prisma.wallet.findMany({
      where: { userId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: WALLET_VIEW,
    });
  }

  /** The wallets of many users in one query (the loader's batch), in key order. */
  async byUserIds(userIds: readonly string[]): Promise<WalletView[][]> {
    const rows = await this.prisma.wallet.findMany({
      where: { userId: { in: [...userIds] } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: WALLET_VIEW,
    });
    const by = new Map<string, WalletView[]>();
    for (const r of rows) by.set(r.userId, [...(by.get(r.userId) ?? []), r]);
    return userIds.map((id) => by.get(id) ?? []);
  }

  /**
   * Asks the wallet provider for the provisioned wallets `userId` lacks and
   * checks their addresses; writes nothing (see {@link storeProvisioned}). The
   * provider is idempotent per user and chain, so asking again, or two calls
   * at once, get the same addresses.
   */
  async provisionMissing(userId: string): Promise<ProvisionedWallet[]> {
    const have = new Set(
      (await this.prisma.wallet.findMany({ where: { userId, kind: 'provisioned' }, select: { chain: true } })).map(
        (w) => w.chain,
      ),
    );
    const missing = CHAINS.filter((c) => !have.has(c));
    return Promise.all(
      missing.map(async (chain) => {
        const { address } = await this.provider.provision(userId, chain);
        let canonical: string;
        try {
          canonical = canonicalAddress(chain, address);
        } catch {
          throw AppError.upstream(`wallet provider sent an invalid ${chain} address`);
        }
        return {
          userId,
          chain,
          address: canonical,
          kind: 'provisioned' as const,
          provisionSlot: `${userId}:${chain}`,
          // The service holds the keys of the wallets it provisions.
          verification: 'verified' as const,
          verifiedAt: new Date(this.now()),
          ownerSlot: ownerSlot(chain, canonical),
        };
      }),
    );
  }

  /**
   * Stores provisioned wallets in the caller's transaction (the user row must
   * exist in it) and returns how many it wrote. Concurrent calls are safe: the
   * one-per-chain slot is a unique key inserted with skip-duplicates, always in
   * chain order. Throws (502) unless the user then has one per chain.
   */
  async storeProvisioned(
    tx: Prisma.TransactionClient,
    userId: string,
    wallets: readonly ProvisionedWallet[],
  ): Promise<number> {
    const { count } =
      wallets.length > 0 ? await tx.wallet.createMany({ data: [...wallets], skipDuplicates: true }) : { count: 0 };
    const now = await tx.wallet.count({ where: { userId, kind: 'provisioned' } });
    // Only an address already linked elsewhere can be skipped without filling the slot.
    if (now < CHAINS.length) throw AppError.upstream('wallet provider returned an address linked to another wallet');
    return count;
  }

  /**
   * Links an external address, unverified: 400 when invalid for its chain; 409 when the caller
   * linked it already, when another user verified it (or was provisioned it), and when another
   * user holds an unverified link of it, unless `claim` is set: then the caller gets a link of
   * its own, to prove ownership through {@link challenge} and {@link verify}, whose takeover
   * removes the other users' unverified links. A 409 names no user. The check and the insert run
   * under a per-address lock (shared with {@link verify}), so of two users importing one address
   * at once, one gets 201 and the other 409.
   */
  async import(userId: string, chain: Chain, rawAddress: string, claim = false): Promise<WalletView> {
    const address = canonicalAddress(chain, rawAddress);
    return this.prisma.$transaction(async (tx) => {
      await lockAddress(tx, chain, address);
      const links = await tx.wallet.findMany({
        where: { chain, address },
        select: { userId: true, verification: true },
      });
      if (links.some((w) => w.userId === userId)) {
        throw AppError.conflict(`${chain} wallet ${address} is already linked to your account`);
      }
      if (links.some((w) => w.verification === 'verified')) {
        throw AppError.conflict(`${chain} wallet ${address} is already linked to another account, which verified it`);
      }
      if (links.length > 0 && !claim) {
        throw AppError.conflict(
          `${chain} wallet ${address} is already linked to another account; verify ownership to claim it ` +
            '(import with claim: true, then challenge and verify)',
        );
      }
      await tx.user.createMany({ data: [{ id: userId }], skipDuplicates: true });
      return tx.wallet.create({ data: { userId, chain, address, kind: 'imported' }, select: WALLET_VIEW });
    });
  }

  /**
   * Opens a one-time ownership challenge on one of the caller's unverified wallets (replacing
   * any open one): 404 when it is not the caller's, 409 when it is verified already or
   * another user verified its address.
   */
  async challenge(userId: string, walletId: string): Promise<WalletChallengeView> {
    const w = await this.prisma.wallet.findFirst({ where: { id: walletId, userId }, select: WALLET_VIEW });
    if (!w) throw AppError.notFound(`wallet ${walletId}`);
    await this.assertClaimable(w);
    const nonce = randomBytes(16).toString('hex');
    const expiresAt = new Date(this.now() + this.options.challengeTtlMs);
    const message = challengeMessage({ chain: w.chain, address: w.address, walletId: w.id, nonce, expiresAt });
    await this.prisma.wallet.update({
      where: { id: w.id },
      data: { challenge: message, challengeExpiresAt: expiresAt },
    });
    return { walletId: w.id, chain: w.chain, address: w.address, message, nonce, expiresAt };
  }

  /**
   * Verifies the caller's wallet with a signature of its open challenge. 400 naming `challenge`
   * when none is open (never asked, used already, or expired) and naming `signature` when it is
   * malformed or not made with the address's key; 404 when the wallet is not the caller's; 409
   * when it is verified already or another user verified the address first. On success the
   * wallet is verified, the challenge is spent, and other users' unverified imports of the
   * address are removed (the address is taken over).
   */
  async verify(userId: string, walletId: string, signature: string): Promise<WalletView> {
    const w = await this.prisma.wallet.findFirst({
      where: { id: walletId, userId },
      select: { ...WALLET_VIEW, challenge: true, challengeExpiresAt: true },
    });
    if (!w) throw AppError.notFound(`wallet ${walletId}`);
    await this.assertClaimable(w);
    const { challenge, challengeExpiresAt } = w;
    if (challenge === null || challengeExpiresAt === null)
      throw AppError.badRequest('challenge', 'none is open for this wallet (request one, then sign it)');
    if (challengeExpiresAt.getTime() <= this.now())
      throw AppError.badRequest('challenge', `expired at ${challengeExpiresAt.toISOString()}; request a new one`);
    const problem = signatureProblem(w.chain, w.address, challenge, signature.trim());
    if (problem === 'format') throw AppError.badRequest('signature', SIGNATURE_FORMATS[w.chain]);
    if (problem === 'mismatch')
      throw AppError.badRequest('signature', `is not a signature of the challenge by ${w.address}`);
    try {
      return await this.prisma.$transaction(async (tx) => {
        await lockAddress(tx, w.chain, w.address);
        // Spends the challenge: a second use of it (or a race with a newer one) finds nothing to update.
        const { count } = await tx.wallet.updateMany({
          where: { id: w.id, userId, verification: 'unverified', challenge },
          data: {
            verification: 'verified',
            verifiedAt: new Date(this.now()),
            ownerSlot: ownerSlot(w.chain, w.address),
            challenge: null,
            challengeExpiresAt: null,
          },
        });
        if (count === 0) throw AppError.badRequest('challenge', 'was used already; request a new one');
        await tx.wallet.deleteMany({
          where: { chain: w.chain, address: w.address, verification: 'unverified', userId: { not: userId } },
        });
        return tx.wallet.findUniqueOrThrow({ where: { id: w.id }, select: WALLET_VIEW });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppError.conflict(`${w.chain} wallet ${w.address} is verified by another user`);
      throw err;
    }
  }

  /** 409 unless `w` may still be verified: unverified, and its address verified by nobody. */
  private async assertClaimable(w: WalletView): Promise<void> {
    if (w.verification === 'verified') throw AppError.conflict(`wallet ${w.id} is verified already`);
    const owner = await this.prisma.wallet.findUnique({
      where: { ownerSlot: ownerSlot(w.chain, w.address) },
      select: { id: true },
    });
    if (owner) throw AppError.conflict(`${w.chain} wallet ${w.address} is verified by another user`);
  }

  /** Unlinks an imported wallet: 404 when it is not the caller's, 400 when provisioned. */
  async remove(userId: string, walletId: string): Promise<WalletView> {
    return this.prisma.$transaction(async (tx) => {
      const w = await tx.wallet.findFirst({ where: { id: walletId, userId }, select: WALLET_VIEW });
      if (!w) throw AppError.notFound(`wallet ${walletId}`);
      if (w.kind === 'provisioned')
        throw AppError.badRequest('id', 'wallets provisioned by the service cannot be removed');
      await tx.wallet.delete({ where: { id: w.id } });
      return w;
    });
  }

  /** The caller's wallets on one chain with USDC, native token and USD value. */
  async chainBalances(userId: string, chain: Chain): Promise<ChainBalancesView> {
    return (await this.valueChain(chain, await this.list(userId))).view;
  }

  private async valueChain(chain: Chain, wallets: WalletView[]): Promise<{ view: ChainBalancesView; usd: bigint }> {
    const mine = wallets.filter((w) => w.chain === chain);
    if (mine.length === 0) {
      const empty = {
        chain,
        nativeSymbol: NATIVE_SYMBOL[chain],
        nativeUsdPrice: 0,
        wallets: [],
        totalUsdc: 0,
        totalNative: 0,
        totalUsd: 0,
      };
      const price = await this.balancesClient.holdings(chain, []);
      return { view: { ...empty, nativeUsdPrice: microsToNumber(price.nativeUsdPrice) }, usd: 0n };
    }
    const holdings = await this.balancesClient.holdings(
      chain,
      mine.map((w) => w.address),
    );
    let usdc = 0n;
    let native = 0n;
    let usd = 0n;
    const rows = mine.map((w) => {
      const h = holdings.byAddress.get(w.address) ?? { usdc: 0n, native: 0n };
      const value = h.usdc + mulMicros(h.native, holdings.nativeUsdPrice);
      usdc += h.usdc;
      native += h.native;
      usd += value;
      return {
        walletId: w.id,
        address: w.address,
        kind: w.kind,
        usdc: microsToNumber(h.usdc),
        native: microsToNumber(h.native),
        usdValue: microsToNumber(value),
      };
    });
    const view = {
      chain,
      nativeSymbol: NATIVE_SYMBOL[chain],
      nativeUsdPrice: microsToNumber(holdings.nativeUsdPrice),
      wallets: rows,
      totalUsdc: microsToNumber(usdc),
      totalNative: microsToNumber(native),
      totalUsd: microsToNumber(usd),
    };
    return { view, usd };
  }

  /**
   * Everything the caller holds in USD: the ledger balance (available and held)
   * plus every wallet's USDC at 1:1 and native tokens at the upstream's price.
   */
  async aggregate(userId: string): Promise<AggregateBalanceView> {
    const wallets = await this.list(userId);
    const [balance, ...chains] = await Promise.all([
      this.ledger.balance(userId, LEDGER_CURRENCY),
      ...CHAINS.map((c) => this.valueChain(c, wallets)),
    ]);
    const onchain = chains.reduce((sum, c) => sum + c.usd, 0n);
    return {
      currency: 'USD',
      total: microsToNumber(balance.available + balance.held + onchain),
      available: microsToNumber(balance.available),
      held: microsToNumber(balance.held),
      onchain: microsToNumber(onchain),
      chains: chains.map((c) => ({ chain: c.view.chain, usd: c.view.totalUsd })),
      prices: chains.map((c) => ({ symbol: c.view.nativeSymbol, usd: c.view.nativeUsdPrice })),
    };
  }
}
