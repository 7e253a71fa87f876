import { Prisma } from '../../db/generated/client';
import type { VenueMarket } from '../../venues/venue.models';
import { marketWording } from '../events/events.models';
import type { PairDecision } from './catalog-match';

/** The catalog's rows: venue markets and pair decisions as stored, and core-event references moved on a merge. */

type Tx = Prisma.TransactionClient;

const dec = (v: number | null) => (v === null ? null : v.toFixed(6));

/** A venue market's row data (prices and figures as 6-decimal strings). */
export function marketData(m: VenueMarket) {
  return {
    ...marketWording(m),
    bestBid: dec(m.bestBid),
    bestAsk: dec(m.bestAsk),
    lastPrice: dec(m.lastPrice),
    volume: dec(m.volume),
    volume24h: dec(m.volume24h),
    openInterest: dec(m.openInterest),
    liquidity: dec(m.liquidity),
    iconUrl: m.iconUrl,
    imageUrl: m.imageUrl,
    outcomeTokenIds: m.outcomeTokenIds ? [m.outcomeTokenIds.yes, m.outcomeTokenIds.no] : [],
  };
}

/** A stored pair decision as the matcher reads it. */
export function toPairDecision(row: {
  venueAEventId: string;
  venueBEventId: string;
  decision: PairDecision['decision'];
  origin: PairDecision['origin'];
  pinned: boolean;
  similarity: Prisma.Decimal;
  relationshipType: PairDecision['relationshipType'];
  confidence: PairDecision['confidence'];
  reason: string;
}): PairDecision {
  return {
    venueAEventId: row.venueAEventId,
    venueBEventId: row.venueBEventId,
    decision: row.decision,
    origin: row.origin,
    pinned: row.pinned,
    similarity: Number(row.similarity),
    relationshipType: row.relationshipType,
    confidence: row.confidence,
    reason: row.reason,
  };
}

/** Columns that name a core event without a foreign key (table, column): constants, never input. */
const EVENT_REFERENCES = [
  ['Comment', 'eventId'],
  ['FeedItem', 'coreEventId'],
  ['Order', 'coreEventId'],
  ['Position', 'coreEventId'],
  ['RouteIntent', 'coreEventId'],
] as const;

/**
 * What users and their trades attached to a core event that is merged away follows it to the event
 * it joined: comments (they are read by the event's slug), feed items, and the event named on
 * orders, positions and route intents. One statement per table for the whole sync.
 */
export async function moveEventReferences(tx: Tx, moves: readonly { from: string; to: string }[]): Promise<void> {
  if (moves.length === 0) return;
  const from = moves.map((m) => m.from);
  const to = moves.map((m) => m.to);
  for (const [table, column] of EVENT_REFERENCES) {
    const [t, c] = [Prisma.raw(`"${table}"`), Prisma.raw(`"${column}"`)];
    await tx.$executeRaw`
      UPDATE ${t} SET ${c} = m.to_id
      FROM unnest(${from}::text[], ${to}::text[]) AS m(from_id, to_id) WHERE ${t}.${c} = m.from_id`;
  }
}
