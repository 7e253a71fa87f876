import type { Infra } from '../../../src/infra';
import { matchVenueEvents } from '../../../src/modules/comparisons/comparison-matcher';
import { planCatalog } from '../../../src/modules/ingestion/catalog-match';
import { eventDocument } from '../../../src/modules/search/event-document';
import { LocalEmbedder } from '../../../src/modules/search/local-embedder';
import { cosine } from '../../../src/modules/search/vector-math';
import { createVenueAClient, createVenueBClient, type VenueEvent } from '../../../src/venues';
import type { VenueAClient, VenueBClient } from '../../../src/venues/live';
import { startFakeVenues, type FakeVenues } from '../../support/fake-venues';
import { loadLabeledSet, venueDataFor, type LabeledPair } from '../../support/labeled-pairs';
import { capturingLogger, testInfra, venuesConfig } from './live-clients.support';

/**
 * The catalog job's matching judged on labeled pairs from the venues' public listings
 * (`test/fixtures/cross-venue/labeled-pairs.json`): both venues' events are served by the fake
 * venues in their own API shapes, listed through the live clients (so what the clients carry is
 * what the matcher sees), embedded with the local search embedder and planned together as one
 * catalog, as a sync would. The stated bounds are the product's: no false merge, and at least
 * 90% of the true pairs merged.
 */
const MIN_PRECISION = 1;
const MIN_RECALL = 0.9;
/** `CATALOG_MATCH_THRESHOLD`'s default. */
const THRESHOLD = 0.5;

const set = loadLabeledSet();
let fake: FakeVenues;
let infra: Infra;
let venueA: VenueEvent[];
let venueB: VenueEvent[];
let similarity: (a: VenueEvent, b: VenueEvent) => number;

beforeAll(async () => {
  fake = await startFakeVenues({ data: venueDataFor(set.venueA, set.venueB) });
  infra = await testInfra();
  const deps = { rateLimiter: infra.rateLimiter, logger: capturingLogger().logger };
  const a: VenueAClient = createVenueAClient(venuesConfig(fake), deps);
  const b: VenueBClient = createVenueBClient(venuesConfig(fake), deps);
  try {
    [venueA, venueB] = await Promise.all([a.listEvents(), b.listEvents()]);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
  const embedder = new LocalEmbedder();
  const all = [...venueA, ...venueB];
  const docs = all.map((e) =>
    eventDocument({
      id: '',
      title: e.title,
      description: e.description,
      category: e.category,
      marketTitles: e.markets.map((m) => m.title),
    }),
  );
  const vectors = new Map((await embedder.embed(docs)).map((v, i) => [all[i], v]));
  similarity = (x, y) => cosine(vectors.get(x) ?? [], vectors.get(y) ?? []);
});

afterAll(async () => {
  await infra?.close();
  await fake?.close();
});

function sides(p: LabeledPair): { a: VenueEvent; b: VenueEvent } {
  const a = venueA.find((e) => e.venueEventId === p.a);
  const b = venueB.find((e) => e.venueEventId === p.b);
  if (!a || !b) throw new Error(`pair ${p.id}: ${a ? '' : `venue_a ${p.a} `}${b ? '' : `venue_b ${p.b}`} not listed`);
  return { a, b };
}

describe('the labeled cross-venue set', () => {
  it('is at least 60 pairs over six categories, with at least as many hard negatives as positives', () => {
    expect(set.pairs.length).toBeGreaterThanOrEqual(60);
    const categories = new Set(set.pairs.map((p) => p.category));
    expect([...categories].sort()).toEqual(['crypto', 'culture', 'economics', 'politics', 'sports', 'weather']);
    const same = set.pairs.filter((p) => p.label === 'same').length;
    expect(set.pairs.length - same).toBeGreaterThanOrEqual(same);
    // Every event says where its wording came from.
    for (const e of [...set.venueA, ...set.venueB]) {
      expect(e.provenance).toMatchObject({
        sources: expect.any(Array),
        wording: expect.stringMatching(/^(verbatim|adapted|composed)$/),
      });
    }
    // Every listed event came through the live clients.
    expect(venueA).toHaveLength(set.venueA.length);
    expect(venueB).toHaveLength(set.venueB.length);
  });

  it(`merges with precision >= ${MIN_PRECISION} and recall >= ${MIN_RECALL} when the whole set is one catalog`, () => {
    const plan = planCatalog({ venueA, venueB, similarity, pinned: [], threshold: THRESHOLD });
    const merged = new Set(
      plan.groups.filter((g) => g.a && g.b).map((g) => `${g.a!.venueEventId}|${g.b!.venueEventId}`),
    );
    const positives = set.pairs.filter((p) => p.label === 'same').map((p) => `${p.a}|${p.b}`);
    const truePositives = positives.filter((k) => merged.has(k));
    // Any merge that is not a labeled positive is false, labeled negative or not.
    const falseMerges = [...merged].filter((k) => !positives.includes(k));
    const missed = positives.filter((k) => !merged.has(k));
    const precision = merged.size === 0 ? 1 : truePositives.length / merged.size;
    const recall = truePositives.length / positives.length;
    expect({ falseMerges, precision }).toEqual({ falseMerges: [], precision: expect.any(Number) });
    expect(precision).toBeGreaterThanOrEqual(MIN_PRECISION);
    if (recall < MIN_RECALL) throw new Error(`recall ${recall.toFixed(3)}; missed ${missed.join(', ')}`);
    expect(recall).toBeGreaterThanOrEqual(MIN_RECALL);
  });

  it.each(set.pairs.filter((p) => p.label === 'apart').map((p) => [p.id, p.probe, p] as const))(
    '%s (%s): the matcher never calls a hard negative one question, and says why',
    (_id, probe, p) => {
      const { a, b } = sides(p);
      const v = matchVenueEvents(a, b);
      expect([v.relationshipType, v.reasoning]).toEqual([
        expect.stringMatching(/^(similar|different)$/),
        expect.any(String),
      ]);
      const said: Record<string, RegExp> = {
        threshold: /strike/,
        period: /period differs|asks by a deadline|asks on a given date|reads the price at|closes .* apart/,
        instrument: /differs|strike|round/,
        station: /weather station differs/,
        source: /source|cites|dataset differs/,
        subject: /subject differs|outcomes differ/,
        combo: /multi-leg combo/,
      };
      expect(v.reasoning).toMatch(said[probe]);
    },
  );

  it.each(set.pairs.filter((p) => p.label === 'same').map((p) => [p.id, p] as const))(
    '%s: the matcher finds one resolution condition, naming what agreed',
    (_id, p) => {
      const { a, b } = sides(p);
      const v = matchVenueEvents(a, b);
      expect([v.relationshipType, v.confidence === 'low' ? 'low' : 'ok', v.reasoning]).toEqual([
        'exact_match',
        'ok',
        expect.stringMatching(
          /^Same resolution condition on both venues: .*(period agrees|only venue_. names a period)/,
        ),
      ]);
    },
  );
});
