import { coreEventIdOf, planCatalog, type PairDecision } from '../../../src/modules/ingestion/catalog-match';
import { eventDocument } from '../../../src/modules/search/event-document';
import { LocalEmbedder } from '../../../src/modules/search/local-embedder';
import { cosine } from '../../../src/modules/search/vector-math';
import { createSimulatedWorld, type VenueEvent } from '../../../src/venues';

/**
 * The catalog job's matching on a realistic pair set: the simulated world's two
 * venue listings (their own wording, dates and market ladders) compared with the
 * search embeddings and the comparisons matcher, and judged against the world's
 * hidden answer, which the planner never sees.
 */
const THRESHOLD = 0.5;

async function listings(seed: number) {
  const world = createSimulatedWorld({ seed, anchor: Date.UTC(2026, 10, 1), now: () => Date.UTC(2026, 10, 22) });
  const venueA = await world.clients.venue_a.listEvents();
  const venueB = await world.clients.venue_b.listEvents();
  const embedder = new LocalEmbedder();
  const doc = (e: VenueEvent) =>
    eventDocument({
      id: '',
      title: e.title,
      description: e.description,
      category: e.category,
      marketTitles: e.markets.map((m) => m.title),
    });
  const all = [...venueA, ...venueB];
  const vectors = new Map((await embedder.embed(all.map(doc))).map((v, i) => [all[i], v]));
  const similarity = (a: VenueEvent, b: VenueEvent) => cosine(vectors.get(a) ?? [], vectors.get(b) ?? []);
  const truth = new Map<string, 'exact_match' | 'similar' | null>();
  for (const ce of world.coreEvents) {
    const { venue_a: a, venue_b: b } = ce.venueEventIds;
    if (a !== undefined && b !== undefined) truth.set(`${a}|${b}`, ce.matchKind);
  }
  return { venueA, venueB, similarity, truth };
}

const pairOf = (g: { a?: VenueEvent; b?: VenueEvent }) => `${g.a?.venueEventId}|${g.b?.venueEventId}`;

describe.each([42, 7])('planCatalog on the simulated venues (seed %i)', (seed) => {
  let input: Awaited<ReturnType<typeof listings>>;
  beforeAll(async () => {
    input = await listings(seed);
  });

  it('merges every pair that is one question on both venues, and nothing else', () => {
    const plan = planCatalog({ ...input, pinned: [], threshold: THRESHOLD });
    const merged = plan.groups.filter((g) => g.a && g.b).map(pairOf);
    const exact = [...input.truth].filter(([, kind]) => kind === 'exact_match').map(([k]) => k);
    expect(exact.length).toBeGreaterThan(20);
    // No false merge: each merged pair is an exact match of the hidden answer...
    for (const pair of merged) expect(input.truth.get(pair)).toBe('exact_match');
    // ...and nearly all exact matches are found (the rest stay apart, never wrongly joined).
    expect(merged.length).toBeGreaterThanOrEqual(Math.floor(exact.length * 0.9));
  });

  it('keeps similar-but-different pairs apart, with the reason in the decision', () => {
    const plan = planCatalog({ ...input, pinned: [], threshold: THRESHOLD });
    const similar = [...input.truth].filter(([, kind]) => kind === 'similar').map(([k]) => k);
    expect(similar.length).toBeGreaterThan(0);
    const merged = new Set(plan.groups.filter((g) => g.a && g.b).map(pairOf));
    for (const pair of similar) expect(merged.has(pair)).toBe(false);
    const decided = plan.decisions.filter((d) => similar.includes(`${d.venueAEventId}|${d.venueBEventId}`));
    expect(decided.length).toBeGreaterThan(0);
    for (const d of decided) {
      expect(d).toMatchObject({ decision: 'separate', origin: 'matcher', relationshipType: 'similar' });
      expect(d.reason).toMatch(/^Kept apart: similarity \d\.\d{3}/);
    }
  });

  it('gives every venue event exactly one core event, with ids derived from the venues', () => {
    const plan = planCatalog({ ...input, pinned: [], threshold: THRESHOLD });
    const a = plan.groups.flatMap((g) => (g.a ? [g.a.venueEventId] : []));
    const b = plan.groups.flatMap((g) => (g.b ? [g.b.venueEventId] : []));
    expect(a.sort()).toEqual(input.venueA.map((e) => e.venueEventId).sort());
    expect(b.sort()).toEqual(input.venueB.map((e) => e.venueEventId).sort());
    for (const g of plan.groups) {
      expect(g.id).toBe(g.a ? coreEventIdOf('venue_a', g.a.venueEventId) : coreEventIdOf('venue_b', g.b!.venueEventId));
    }
    expect(new Set(plan.groups.map((g) => g.id)).size).toBe(plan.groups.length);
    // Deterministic: the same listings give the same plan.
    expect(planCatalog({ ...input, pinned: [], threshold: THRESHOLD })).toEqual(plan);
  });
});

describe('planCatalog with pinned decisions', () => {
  let input: Awaited<ReturnType<typeof listings>>;
  beforeAll(async () => {
    input = await listings(42);
  });
  const pin = (a: string, b: string, decision: 'merge' | 'separate'): PairDecision => ({
    venueAEventId: a,
    venueBEventId: b,
    decision,
    origin: 'admin',
    pinned: true,
    similarity: 0,
    relationshipType: null,
    confidence: null,
    reason: 'by hand',
  });

  it('a pinned split keeps a matched pair apart; a pinned merge joins any two events first', () => {
    const auto = planCatalog({ ...input, pinned: [], threshold: THRESHOLD });
    const [first, second] = auto.groups.filter((g) => g.a && g.b);
    const aOnly = auto.groups.find((g) => g.a && !g.b)!.a!;
    const bOnly = auto.groups.find((g) => g.b && !g.a)!.b!;
    const plan = planCatalog({
      ...input,
      pinned: [
        pin(first.a!.venueEventId, first.b!.venueEventId, 'separate'),
        pin(aOnly.venueEventId, bOnly.venueEventId, 'merge'),
        // Names a venue_a event no longer listed: it waits, stored, and takes nothing from the matcher.
        pin('no-longer-listed', second.b!.venueEventId, 'merge'),
      ],
      threshold: THRESHOLD,
    });
    const pairs = new Set(plan.groups.filter((g) => g.a && g.b).map(pairOf));
    expect(pairs.has(pairOf(first))).toBe(false);
    expect(pairs.has(`${aOnly.venueEventId}|${bOnly.venueEventId}`)).toBe(true);
    // A pin naming an event the venue does not list waits: the matcher still merges the second pair.
    expect(pairs.has(pairOf(second))).toBe(true);
    const applied = plan.decisions.filter((d) => d.pinned);
    expect(applied.map((d) => d.decision).sort()).toEqual(['merge', 'separate']);
    // The matcher never revisits a pinned pair.
    const revisited = plan.decisions.filter(
      (d) => !d.pinned && d.venueAEventId === first.a!.venueEventId && d.venueBEventId === first.b!.venueEventId,
    );
    expect(revisited).toEqual([]);
  });
});
