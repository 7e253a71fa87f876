import { matchVenueEvents, type MatchSide } from '../../../src/modules/comparisons/comparison-matcher';
import { bucketOf, subtagOf } from '../../../src/modules/comparisons/comparison-taxonomy';
import { createSimulatedWorld, type VenueEvent } from '../../../src/venues';

/** Matched pairs of a world with the simulator's ground truth (used here only to grade the matcher). */
async function pairs(seed: number, anchor: number) {
  const world = createSimulatedWorld({ seed, anchor });
  const index = async (v: 'venue_a' | 'venue_b') =>
    new Map((await world.clients[v].listEvents()).map((e) => [e.venueEventId, e]));
  const [a, b] = await Promise.all([index('venue_a'), index('venue_b')]);
  return world.coreEvents
    .filter((ce) => ce.venueEventIds.venue_a && ce.venueEventIds.venue_b)
    .map((ce) => ({
      truth: ce.matchKind,
      category: ce.category,
      a: a.get(ce.venueEventIds.venue_a!)!,
      b: b.get(ce.venueEventIds.venue_b!)!,
    }));
}

const WORLDS = [
  [42, Date.UTC(2026, 10, 1)],
  [7, Date.UTC(2026, 0, 1)],
  [123, Date.UTC(2026, 3, 1)],
  [2024, Date.UTC(2026, 6, 1)],
  [99, Date.UTC(2027, 8, 1)],
] as const;

describe('matchVenueEvents against the simulated worlds', () => {
  let all: Awaited<ReturnType<typeof pairs>>;
  beforeAll(async () => {
    all = (await Promise.all(WORLDS.map(([seed, anchor]) => pairs(seed, anchor)))).flat();
  });

  it('agrees with the ground truth on exact_match versus similar for at least 95% of pairs, in both classes', () => {
    const verdicts = all.map((p) => ({ truth: p.truth, got: matchVenueEvents(p.a, p.b).relationshipType }));
    const rate = (kind: string) => {
      const of = verdicts.filter((v) => v.truth === kind);
      return of.filter((v) => v.got === v.truth).length / of.length;
    };
    expect(verdicts.filter((v) => v.truth === 'similar').length).toBeGreaterThan(20);
    expect(rate('exact_match')).toBeGreaterThanOrEqual(0.95);
    expect(rate('similar')).toBeGreaterThanOrEqual(0.95);
  });

  it('explains every verdict and names a bucket and a subtag for every category', () => {
    const subtags = new Map<string, Set<string>>();
    for (const p of all) {
      const v = matchVenueEvents(p.a, p.b);
      expect(v.bucket).toBe(p.category);
      expect(v.reasoning.length).toBeGreaterThan(40);
      expect(['high', 'medium', 'low']).toContain(v.confidence);
      if (v.relationshipType === 'exact_match') expect(v.reasoning).toMatch(/^Same resolution condition/);
      else expect(v.reasoning).toMatch(/^Same topic, different resolution: /);
      const set = subtags.get(v.bucket!) ?? new Set<string>();
      set.add(v.subtag!);
      subtags.set(v.bucket!, set);
    }
    expect([...subtags.keys()].sort()).toEqual([
      'crypto',
      'culture',
      'economics',
      'politics',
      'science',
      'sports',
      'tech',
    ]);
    for (const [, set] of subtags) {
      expect(set.has('other')).toBe(false);
      expect(set.size).toBeGreaterThan(1);
    }
  });

  it('is deterministic and does not read the simulator’s answer', () => {
    const p = all.find((x) => x.truth === 'similar')!;
    const first = matchVenueEvents(p.a, p.b);
    // Only what a venue publishes goes in: a plain copy of the venue events gives the same verdict.
    const copy = (e: VenueEvent): MatchSide =>
      JSON.parse(JSON.stringify(e), (k, v) => (k === 'closeTime' && v ? new Date(v as string) : v)) as MatchSide;
    expect(matchVenueEvents(copy(p.a), copy(p.b))).toEqual(first);
  });
});

const side = (o: Partial<MatchSide> & { title: string; description: string }): MatchSide => ({
  venueEventId: o.title,
  category: 'crypto',
  closeTime: new Date('2027-01-31T23:59:00Z'),
  markets: [{ title: o.title, description: o.description }],
  ...o,
});

describe('matchVenueEvents rules', () => {
  it('calls paraphrases of one condition an exact match with high confidence', () => {
    const v = matchVenueEvents(
      side({
        title: 'Will a spot Cardano ETF begin trading in the U.S. by January 31, 2027?',
        description:
          'Resolves Yes if shares of a spot Cardano ETF trade on a U.S. exchange by January 31, 2027. SEC ' +
          'approval alone is not sufficient.',
      }),
      side({
        title: 'Spot Cardano ETF trading in the US by Jan 31, 2027?',
        description:
          'If shares of a spot Cardano ETF trade on a US exchange before Jan 31, 2027, then the market ' +
          'resolves to Yes.',
      }),
    );
    expect(v).toMatchObject({ relationshipType: 'exact_match', confidence: 'high', bucket: 'crypto', subtag: 'etf' });
  });

  it('flags a criterion one venue rules out and the other counts', () => {
    const v = matchVenueEvents(
      side({
        title: 'Will a spot Cardano ETF begin trading by January 31, 2027?',
        description: 'Shares must trade. SEC approval alone is not sufficient.',
      }),
      side({
        title: 'SEC approves a spot Cardano ETF by Jan 31, 2027?',
        description: 'If the SEC approves a spot Cardano ETF, the market resolves to Yes. Trading need not have begun.',
      }),
    );
    expect(v.relationshipType).toBe('similar');
    expect(v.reasoning).toMatch(/venue_a rules out .*"approval"/);
    expect(v.reasoning).toMatch(/venue_b rules out "trading"/);
  });

  it('reads "X, not Y, do not count" as excluding X only', () => {
    const a = side({
      title: 'Snap election held by Jan 31, 2027?',
      description: 'Resolves Yes if voting takes place. Elections merely called, not held, do not count.',
    });
    const held = matchVenueEvents(
      a,
      side({
        title: 'Snap election by Jan 31, 2027?',
        description: 'If an early election is held, the market resolves to Yes.',
      }),
    );
    const called = matchVenueEvents(
      a,
      side({
        title: 'Snap election called by Jan 31, 2027?',
        description: 'If an early election is formally called, the market resolves to Yes.',
      }),
    );
    expect(held.relationshipType).toBe('exact_match');
    expect(called.relationshipType).toBe('similar');
  });

  it('flags timeframes: other close times, deadline versus date', () => {
    const a = side({
      title: 'Will OpenAI release GPT-6 by January 31, 2027?',
      description: 'GPT-6 generally available by January 31, 2027.',
    });
    const later = matchVenueEvents(
      a,
      side({
        title: 'GPT-6 out before Apr 30, 2027?',
        description: 'GPT-6 generally available before Apr 30, 2027.',
        closeTime: new Date('2027-04-30T23:59:00Z'),
      }),
    );
    expect(later.relationshipType).toBe('similar');
    expect(later.reasoning).toMatch(/89 days apart/);
    const onDate = matchVenueEvents(
      a,
      side({ title: 'GPT-6 available on Jan 31, 2027?', description: 'GPT-6 generally available on Jan 31, 2027.' }),
    );
    expect(onDate.reasoning).toMatch(/by a deadline while venue_b asks on a given date/);
  });

  it('flags different measures and sources', () => {
    const core = matchVenueEvents(
      side({
        title: 'US annual inflation in January?',
        description: 'Headline CPI-U 12-month change, per the BLS.',
        category: 'economics',
      }),
      side({
        title: 'Core CPI year-over-year in Jan 2027',
        description: 'Core CPI (all items less food and energy), per the BLS.',
        category: 'economics',
      }),
    );
    expect(core).toMatchObject({ relationshipType: 'similar', subtag: 'inflation' });
    expect(core.reasoning).toMatch(/headline or core figure differs/);
    const rcp = matchVenueEvents(
      side({
        title: 'Presidential approval rating on January 31?',
        description: 'Markets on the Silver Bulletin average of approval.',
        category: 'politics',
      }),
      side({
        title: 'Approval rating (RCP average) on Jan 31, 2027',
        description: 'Resolves on the RealClearPolitics average.',
        category: 'politics',
      }),
    );
    expect(rcp.relationshipType).toBe('similar');
    expect(rcp.reasoning).toMatch(/"rcp" where venue_a cites "silver"/);
  });

  it('lowers confidence when the structure or the categories differ', () => {
    const a = side({
      title: 'Bitcoin above $100,000 on Jan 31?',
      description: 'Binance close.',
      markets: [
        { title: 'Above $100,000?', description: null },
        { title: 'Above $110,000?', description: null },
      ],
    });
    const b = side({
      title: 'Bitcoin above $100k on Jan 31?',
      description: 'Binance close.',
      markets: [
        { title: 'Above $100k?', description: null },
        { title: 'Above $120k?', description: null },
      ],
    });
    expect(matchVenueEvents(a, b)).toMatchObject({ relationshipType: 'exact_match', confidence: 'medium' });
    expect(matchVenueEvents(a, { ...a, category: 'Finance' })).toMatchObject({
      confidence: 'medium',
      bucket: 'crypto',
    });
  });
});

describe('taxonomy', () => {
  it('maps category names to buckets and finds subtags titles first', () => {
    expect(bucketOf('Economy')).toBe('economics');
    expect(bucketOf(' Sports ')).toBe('sports');
    expect(bucketOf('')).toBeNull();
    expect(subtagOf('crypto', ['Bitcoin price on May 1?', 'measured on Binance BTC/USDT'])).toBe('bitcoin');
    expect(subtagOf('crypto', ['Will Ethereum flip Bitcoin?'])).toBe('ethereum');
    expect(subtagOf('sports', ['Lakers at Celtics (Nov 9) winner?', 'NBA game'])).toBe('nba');
    expect(subtagOf('weather', ['anything'])).toBe('other');
    expect(subtagOf(null, ['x'])).toBeNull();
  });
});
