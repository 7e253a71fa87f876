import { createHash } from 'node:crypto';
import type { Venue, VenueEvent } from '../../venues/venue.models';
import { matchVenueEvents, type Confidence, type RelationshipType } from '../comparisons/comparison-matcher';
import { contentStems } from '../comparisons/match-text';

/** The catalog job's decision on a pair of venue events (venue_a, venue_b). */
export type PairDecisionKind = 'merge' | 'separate';

export interface PairDecision {
  venueAEventId: string;
  venueBEventId: string;
  decision: PairDecisionKind;
  origin: 'matcher' | 'admin';
  pinned: boolean;
  /** Cosine similarity of the two events' search embeddings (0..1). */
  similarity: number;
  /** The matcher's relationship; null for an admin decision and for different questions (the reason says so). */
  relationshipType: RelationshipType | null;
  confidence: Confidence | null;
  reason: string;
}

/** One core event to write: one venue event, or a venue_a event and its venue_b match. */
export interface CatalogGroup {
  id: string;
  a?: VenueEvent;
  b?: VenueEvent;
}

export interface CatalogPlan {
  groups: CatalogGroup[];
  /** Every decision of this run: the pinned ones it applied, and the matcher's on each candidate pair. */
  decisions: PairDecision[];
}

export interface PlanInput {
  venueA: readonly VenueEvent[];
  venueB: readonly VenueEvent[];
  /** Cosine similarity of two events' embeddings. */
  similarity: (a: VenueEvent, b: VenueEvent) => number;
  /** Admin decisions: applied as they are, whatever the matcher would say. */
  pinned: readonly PairDecision[];
  /** A pair needs this similarity to merge; below it the matcher is not asked. */
  threshold: number;
}

/**
 * Pairs this far below the threshold are still examined and their decision recorded, at most
 * {@link REVIEWED_PER_EVENT} per venue_a event: the near misses an administrator may want to merge
 * by hand. One of them merges only when the matcher finds every decisive term agreeing with high
 * confidence (same structure, same category): the venues worded one question so differently that
 * the embeddings drifted apart, while what decides it is stated alike on both.
 */
export const REVIEW_BAND = 0.2;
export const REVIEWED_PER_EVENT = 3;

/**
 * The core event id of a venue event standing alone, and of a merged pair (the
 * venue_a event's): `evt_` + 12 hex chars of sha256(`venue:venueEventId`).
 * Derived from the venues' own ids, so every sync and every process agrees.
 */
export function coreEventIdOf(venue: Venue, venueEventId: string): string {
  return `evt_${createHash('sha256').update(`${venue}:${venueEventId}`).digest('hex').slice(0, 12)}`;
}

/**
 * A word of market titles or outcome labels shared by more venue_b events than this names a kind
 * of question ("win", "above"), not one question: pairing on it would compare a venue_a event with
 * each of them. Event-title words pair whatever their count, as they always have.
 */
export const MARKET_WORD_LIMIT = 50;

/** Content stems of what names an event's question beyond its title: market titles and outcome labels. */
function marketStems(e: VenueEvent): Set<string> {
  return contentStems(e.markets.map((m) => `${m.title} ${m.terms?.outcomeLabel ?? ''}`).join(' '));
}

/**
 * Candidate pairs: events sharing a content word of their titles, or a rarer one of their market
 * titles and outcome labels ("Duke" in "Will Duke win the 2025 NCAA Tournament?" and in a market
 * of "Men's College Basketball Champion?"). A pair with nothing in common cannot reach the
 * threshold, so the quadratic comparison of whole catalogs is avoided (inverted indexes on stems).
 */
function candidatePairs(venueA: readonly VenueEvent[], venueB: readonly VenueEvent[]): [VenueEvent, VenueEvent][] {
  const byTitle = new Map<string, number[]>();
  const byMarket = new Map<string, number[]>();
  const index = (map: Map<string, number[]>, stems: Set<string>, j: number) => {
    for (const s of stems) {
      const list = map.get(s) ?? [];
      list.push(j);
      map.set(s, list);
    }
  };
  venueB.forEach((b, j) => {
    index(byTitle, contentStems(b.title), j);
    index(byMarket, marketStems(b), j);
  });
  const out: [VenueEvent, VenueEvent][] = [];
  for (const a of venueA) {
    const seen = new Set<number>();
    for (const s of contentStems(a.title)) for (const j of byTitle.get(s) ?? []) seen.add(j);
    for (const s of marketStems(a)) {
      const list = byMarket.get(s) ?? [];
      if (list.length <= MARKET_WORD_LIMIT) for (const j of list) seen.add(j);
    }
    for (const j of [...seen].sort((x, y) => x - y)) out.push([a, venueB[j]]);
  }
  return out;
}

const pairKey = (a: string, b: string) => `${a}\u0000${b}`;

/**
 * Groups the venues' events into core events. Pinned (admin) decisions come
 * first; then candidate pairs, most similar first, each venue event merging at
 * most once: a pair merges when its similarity reaches the threshold and the
 * comparisons matcher finds the same resolution condition (`exact_match`) with
 * more than low confidence (in {@link REVIEW_BAND}, with high confidence). Every
 * pair examined (near misses in the band included, and pairs above the threshold
 * whose event had already merged) gets a decision with its reason.
 * Pure and deterministic: the same listings and pins give the same plan.
 */
export function planCatalog(input: PlanInput): CatalogPlan {
  const aById = new Map(input.venueA.map((e) => [e.venueEventId, e]));
  const bById = new Map(input.venueB.map((e) => [e.venueEventId, e]));
  const partnerOfA = new Map<string, string>();
  const partnerOfB = new Map<string, string>();
  const pinnedPairs = new Set<string>();
  const decisions: PairDecision[] = [];

  const pins = [...input.pinned].sort((x, y) => (x.decision === y.decision ? 0 : x.decision === 'merge' ? -1 : 1));
  for (const pin of pins) {
    pinnedPairs.add(pairKey(pin.venueAEventId, pin.venueBEventId));
    const a = aById.get(pin.venueAEventId);
    const b = bById.get(pin.venueBEventId);
    // A pin of an event the venue no longer lists waits (stored) until it is listed again.
    if (!a || !b) continue;
    if (pin.decision === 'merge') {
      if (partnerOfA.has(a.venueEventId) || partnerOfB.has(b.venueEventId)) continue;
      partnerOfA.set(a.venueEventId, b.venueEventId);
      partnerOfB.set(b.venueEventId, a.venueEventId);
    }
    decisions.push(pin);
  }

  const scored = candidatePairs(input.venueA, input.venueB)
    .filter(([a, b]) => !pinnedPairs.has(pairKey(a.venueEventId, b.venueEventId)))
    .map(([a, b]) => ({ a, b, similarity: input.similarity(a, b) }))
    .filter((p) => p.similarity >= input.threshold - REVIEW_BAND)
    .sort(
      (x, y) =>
        y.similarity - x.similarity ||
        cmp(x.a.venueEventId, y.a.venueEventId) ||
        cmp(x.b.venueEventId, y.b.venueEventId),
    );
  const reviewed = new Map<string, number>();
  for (const { a, b, similarity } of scored) {
    const candidate = similarity >= input.threshold;
    const takenA = partnerOfA.get(a.venueEventId);
    const takenB = partnerOfB.get(b.venueEventId);
    if (takenA !== undefined || takenB !== undefined) {
      // A candidate that lost to a more similar (or pinned) pair is recorded with its verdict: a near miss.
      if (!candidate) continue;
      const why =
        takenA !== undefined
          ? `venue_a event ${a.venueEventId} is already merged with venue_b event ${takenA}`
          : `venue_b event ${b.venueEventId} is already merged with venue_a event ${takenB}`;
      decisions.push(decide(a, b, similarity, input.threshold, why));
      continue;
    }
    const seen = reviewed.get(a.venueEventId) ?? 0;
    if (!candidate && seen >= REVIEWED_PER_EVENT) continue;
    reviewed.set(a.venueEventId, seen + 1);
    const decision = decide(a, b, similarity, input.threshold);
    if (decision.decision === 'merge') {
      partnerOfA.set(a.venueEventId, b.venueEventId);
      partnerOfB.set(b.venueEventId, a.venueEventId);
    }
    decisions.push(decision);
  }

  const groups: CatalogGroup[] = [];
  for (const a of input.venueA) {
    const partner = partnerOfA.get(a.venueEventId);
    groups.push({ id: coreEventIdOf('venue_a', a.venueEventId), a, b: partner ? bById.get(partner) : undefined });
  }
  for (const b of input.venueB) {
    if (!partnerOfB.has(b.venueEventId)) groups.push({ id: coreEventIdOf('venue_b', b.venueEventId), b });
  }
  return { groups, decisions };
}

/**
 * The matcher's decision on one pair. At or above the threshold a pair merges when the matcher
 * finds one resolution condition with more than low confidence; in the review band, only with high
 * confidence (see {@link REVIEW_BAND}). `takenBy` says why a pair cannot merge whatever the verdict.
 */
function decide(a: VenueEvent, b: VenueEvent, similarity: number, threshold: number, takenBy?: string): PairDecision {
  const candidate = similarity >= threshold;
  const verdict = matchVenueEvents(a, b);
  const exact = verdict.relationshipType === 'exact_match';
  const merge = !takenBy && exact && (candidate ? verdict.confidence !== 'low' : verdict.confidence === 'high');
  const score = `similarity ${similarity.toFixed(3)} (threshold ${threshold})`;
  const finds = `the matcher finds ${verdict.relationshipType.replace('_', ' ')} with ${verdict.confidence} confidence`;
  let reason: string;
  if (merge && candidate) reason = `Merged: ${score}; ${verdict.reasoning}`;
  else if (merge)
    reason =
      `Merged: ${score} is below the threshold, but the matcher finds every decisive term alike with high ` +
      `confidence; ${verdict.reasoning}`;
  else if (takenBy) reason = `Kept apart: ${score}, but ${takenBy}; ${finds}; ${verdict.reasoning}`;
  else if (!candidate) reason = `Kept apart: ${score} is below the threshold; ${finds}; ${verdict.reasoning}`;
  else reason = `Kept apart: ${score}, but ${finds}; ${verdict.reasoning}`;
  return {
    venueAEventId: a.venueEventId,
    venueBEventId: b.venueEventId,
    decision: merge ? 'merge' : 'separate',
    origin: 'matcher',
    pinned: false,
    similarity,
    // The stored relationship is the comparisons' own (exact_match, similar); "different" lives in the reason.
    relationshipType: verdict.relationshipType === 'different' ? null : verdict.relationshipType,
    confidence: verdict.confidence,
    reason,
  };
}

function cmp(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}
