import type { PrismaClient } from '../../db/generated/client';
import { outcomeTokenId } from '../../venues';
import type { OutcomeSide } from '../../venues/venue.models';

/** The simulated venue_a's token ids (a venue market's own ids win where the catalog stores them). */
export { outcomeTokenId };

export interface OutcomeToken {
  venueMarketId: string;
  outcome: OutcomeSide;
}

/**
 * Token id → market outcome over venue_a's markets, built from the catalog on
 * first use and dropped when the catalog changes. A market's stored
 * `outcomeTokenIds` (what the venue publishes, in the order of its outcomes:
 * yes, then no) are its tokens; a row stored before markets carried them falls
 * back to the simulated world's derivation ({@link outcomeTokenId}).
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
        select: { venueMarketId: true, outcomeTokenIds: true },
      });
      const index = new Map<string, OutcomeToken>();
      for (const { venueMarketId, outcomeTokenIds } of markets) {
        const sides = ['yes', 'no'] as const;
        const ids = outcomeTokenIds.length === 2 ? outcomeTokenIds : sides.map((o) => outcomeTokenId(venueMarketId, o));
        sides.forEach((outcome, i) => index.set(ids[i], { venueMarketId, outcome }));
      }
      return index;
    } catch (err) {
      this.loading = null;
      throw err;
    }
  }
}
