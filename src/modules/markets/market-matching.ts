import { round6 } from '../../money/money';
import type { Venue } from '../../venues/venue.models';
import type { MarketView } from '../events/events.models';
import { embedWeighted } from '../search/local-embedder';
import { cosine } from '../search/vector-math';

/** A pairing of two venue markets of one core event. */
export interface MarketPair {
  a: MarketView;
  b: MarketView;
  similarity: number;
}

function titleVector(m: MarketView): number[] {
  return embedWeighted([{ text: m.title, weight: 1 }]);
}

/**
 * Pairs the markets of one core event across two venues, one to one, by title
 * similarity (the local embedder: shared words, synonyms and numbers such as
 * thresholds). Greedy on the best remaining pair: assigning jointly keeps a
 * market from stealing the counterpart of a closer match. Deterministic: ties
 * break by market id.
 */
export function pairMarkets(markets: readonly MarketView[], left: Venue, right: Venue): MarketPair[] {
  const as = markets.filter((m) => m.venue === left);
  const bs = markets.filter((m) => m.venue === right);
  const bv = bs.map(titleVector);
  const candidates: MarketPair[] = [];
  for (const a of as) {
    const av = titleVector(a);
    bs.forEach((b, j) => candidates.push({ a, b, similarity: Math.max(0, cosine(av, bv[j])) }));
  }
  candidates.sort(
    (x, y) => y.similarity - x.similarity || x.a.id.localeCompare(y.a.id) || x.b.id.localeCompare(y.b.id),
  );
  const usedA = new Set<string>();
  const usedB = new Set<string>();
  const pairs: MarketPair[] = [];
  for (const c of candidates) {
    if (usedA.has(c.a.id) || usedB.has(c.b.id)) continue;
    usedA.add(c.a.id);
    usedB.add(c.b.id);
    pairs.push(c);
  }
  return pairs;
}

/**
 * The market on the other venue that asks the same question as `market`,
 * among the markets of its core event: its partner in {@link pairMarkets},
 * else (more markets on this side than the other) the most similar one.
 */
export function findCounterpart(
  market: MarketView,
  siblings: readonly MarketView[],
): { market: MarketView; similarity: number } | null {
  const other: Venue = market.venue === 'venue_a' ? 'venue_b' : 'venue_a';
  const others = siblings.filter((m) => m.venue === other);
  if (others.length === 0) return null;
  const pair = pairMarkets(siblings, market.venue, other).find((p) => p.a.id === market.id);
  if (pair) return { market: pair.b, similarity: round6(pair.similarity) };
  const v = titleVector(market);
  const best = others
    .map((m) => ({ market: m, similarity: Math.max(0, cosine(v, titleVector(m))) }))
    .sort((x, y) => y.similarity - x.similarity || x.market.id.localeCompare(y.market.id))[0];
  return { market: best.market, similarity: round6(best.similarity) };
}
