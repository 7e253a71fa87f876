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
 * Pairs this far below the threshold are still examined and their decision
 * (separate) recorded, at most {@link REVIEWED_PER_EVENT} per venue_a event:
 * the near misses an administrator may want to merge by hand.
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
 * Candidate pairs: events sharing at least one content word in their titles.
 * A pair with nothing in common cannot reach the threshold, so the quadratic
 * comparison of whole catalogs is avoided (an inverted index on title stems).
 */
function candidatePairs(venueA: readonly VenueEvent[], venueB: readonly VenueEvent[]): [VenueEvent, VenueEvent][] {
  const byStem = new Map<string, number[]>();
  venueB.forEach((b, j) => {
    for (const s of contentStems(b.title)) {
      const list = byStem.get(s) ?? [];
      list.push(j);
      byStem.set(s, list);
    }
  });
  const out: [VenueEvent, VenueEvent][] = [];
  for (const a of venueA) {
    const seen = new Set<number>();
    for (const s of contentStems(a.title)) for (const j of byStem.get(s) ?? []) seen.add(j);
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
 * more than low confidence. Every pair examined (near misses in {@link REVIEW_BAND}
 * included) gets a decision with its reason.
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
    const taken = partnerOfA.get(a.venueEventId) ?? partnerOfB.get(b.venueEventId);
    if (taken !== undefined) continue;
    const candidate = similarity >= input.threshold;
    const seen = reviewed.get(a.venueEventId) ?? 0;
    if (!candidate && seen >= REVIEWED_PER_EVENT) continue;
    reviewed.set(a.venueEventId, seen + 1);
    const verdict = matchVenueEvents(a, b);
    const merge = candidate && verdict.relationshipType === 'exact_match' && verdict.confidence !== 'low';
    if (merge) {
      partnerOfA.set(a.venueEventId, b.venueEventId);
      partnerOfB.set(b.venueEventId, a.venueEventId);
    }
    const score = `similarity ${similarity.toFixed(3)} (threshold ${input.threshold})`;
    decisions.push({
      venueAEventId: a.venueEventId,
      venueBEventId: b.venueEventId,
      decision: merge ? 'merge' : 'separate',
      origin: 'matcher',
      pinned: false,
      similarity,
      relationshipType: verdict.relationshipType,
      confidence: verdict.confidence,
      reason: merge
        ? `Merged: ${score}; ${verdict.reasoning}`
        : !candidate
          ? `Kept apart: ${score} is below the threshold; the matcher finds ` +
            `${verdict.relationshipType.replace('_', ' ')} with ${verdict.confidence} confidence; ${verdict.reasoning}`
          : `Kept apart: ${score}, but the matcher finds ${verdict.relationshipType.replace('_', ' ')} ` +
            `with ${verdict.confidence} confidence; ${verdict.reasoning}`,
    });
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

function cmp(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}
