import { createHash } from 'node:crypto';
import type { OutcomeSide } from '../venue.models';

/**
 * The simulated venue_a's on-chain asset ids: each market outcome is an ERC-1155
 * token whose id is a uint256, here
 * `uint256(sha256("venue_a-token|" + venueMarketId + "|" + outcome))` in decimal,
 * outcome `yes` or `no`. The simulated world publishes them on its markets
 * (`outcomeTokenIds`) the way the real venue_a does, so the chain indexer can be
 * exercised from outside. Asset id 0 is the collateral (USDC).
 */
export function outcomeTokenId(venueMarketId: string, outcome: OutcomeSide): string {
  return BigInt(`0x${createHash('sha256').update(`venue_a-token|${venueMarketId}|${outcome}`).digest('hex')}`).toString(
    10,
  );
}
