import { createHash } from 'node:crypto';
import type { PrismaClient } from '../../db/generated/client';
import type { OutcomeSide } from '../../venues/venue.models';

/**
 * venue_a's on-chain asset ids: each market outcome is an ERC-1155 token whose
 * id is a uint256. The service's catalog has no token ids (the venue contract
 * does not carry them), so the mapping is defined here and is deterministic:
 * `tokenId = uint256(sha256("venue_a-token|" + venueMarketId + "|" + outcome))`
 * in decimal, outcome `yes` or `no`. Asset id 0 is the collateral (USDC).
 */
export function outcomeTokenId(venueMarketId: string, outcome: OutcomeSide): string {
  return BigInt(`0x${createHash('sha256').update(`venue_a-token|${venueMarketId}|${outcome}`).digest('hex')}`).toString(
    10,
  );
}

export interface OutcomeToken {
  venueMarketId: string;
  outcome: OutcomeSide;
}

/**
 * Token id → market outcome over venue_a's markets, built from the catalog on
 * first use and dropped when the catalog changes.
 */
export class OutcomeTokenIndex {
  private loading: Promise<Map<string, OutcomeToken>> | null = null;

  constructor(private readonly prisma: PrismaClient) {}

  invalidate(): void {
    this.loading = null;
  }

  async lookup(tokenIds: readonly string[]): Promise<(OutcomeToken | undefined)[]> {
    const index = await (this.loading ??= this.build());
    return tokenIds.map((t) => index.get(t));
  }

  private async build(): Promise<Map<string, OutcomeToken>> {
    try {
      const markets = await this.prisma.market.findMany({
        where: { venue: 'venue_a' },
        select: { venueMarketId: true },
      });
      const index = new Map<string, OutcomeToken>();
      for (const { venueMarketId } of markets) {
        for (const outcome of ['yes', 'no'] as const)
          index.set(outcomeTokenId(venueMarketId, outcome), { venueMarketId, outcome });
      }
      return index;
    } catch (err) {
      this.loading = null;
      throw err;
    }
  }
}
