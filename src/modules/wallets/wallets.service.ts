import type { Prisma, PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import { microsToNumber, mulMicros } from '../../money';
import { LEDGER_CURRENCY, type LedgerService } from '../ledger';
import { canonicalAddress } from './chain-address';
import { CHAINS, type Chain } from './wallets.limits';
import { NATIVE_SYMBOL, type ChainBalancesClient } from './chain-balances.client';
import type { WalletProvider } from './wallet-provider.client';
import { WALLET_VIEW, type AggregateBalanceView, type ChainBalancesView, type WalletView } from './wallets.models';

/** A provisioned wallet the provider made, ready to store. */
export interface ProvisionedWallet {
  userId: string;
  chain: Chain;
  address: string;
  kind: 'provisioned';
  /** `userId:chain`: at most one provisioned wallet per chain and user. */
  provisionSlot: string;
}

/**
 * Users' wallets: the provisioned ones (one per chain, from the wallet provider)
 * and imported ones (external addresses the user links). An address is linked
 * to one user at most, which the (chain, address) unique index enforces.
 */
export class WalletsService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly provider: WalletProvider,
    private readonly balancesClient: ChainBalancesClient,
    private readonly ledger: LedgerService,
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
        return { userId, chain, address: canonical, kind: 'provisioned' as const, provisionSlot: `${userId}:${chain}` };
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

  /** Links an external address: 400 when invalid for its chain, 409 when linked already (by anyone). */
  async import(userId: string, chain: Chain, rawAddress: string): Promise<WalletView> {
    const address = canonicalAddress(chain, rawAddress);
    return this.prisma.$transaction(async (tx) => {
      await tx.user.createMany({ data: [{ id: userId }], skipDuplicates: true });
      const { count } = await tx.wallet.createMany({
        data: [{ userId, chain, address, kind: 'imported' }],
        skipDuplicates: true,
      });
      if (count === 0) throw AppError.conflict(`${chain} wallet ${address} is already linked`);
      return tx.wallet.findUniqueOrThrow({ where: { chain_address: { chain, address } }, select: WALLET_VIEW });
    });
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
