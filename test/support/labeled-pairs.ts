import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  loadVenueFixtures,
  type FakeVenueData,
  type GammaEventFixture,
  type GammaMarketFixture,
  type KalshiEventFixture,
  type KalshiMarketFixture,
} from './fake-venues';

/**
 * The labeled cross-venue pairs (`test/fixtures/cross-venue/labeled-pairs.json`): venue events as
 * the venues state their questions, and pairs labeled `same` (one resolution condition) or `apart`
 * (a hard negative). The fixture holds only what decides a question; the builders below add the
 * trading fields (ids, token ids, prices) the fake venues and the live clients need.
 */

export type PairLabel = 'same' | 'apart';

export interface LabeledPair {
  id: string;
  category: string;
  /** venue_a event id and venue_b event ticker. */
  a: string;
  b: string;
  label: PairLabel;
  /** What the pair probes: `positive`, or the rule a negative tests (threshold, period, station, ...). */
  probe: string;
  why: string;
}

/** A venue_a event as the fixture states it (Gamma field names), with where its wording came from. */
export interface StatedGammaEvent {
  id: string;
  title: string;
  endDate?: string;
  provenance?: unknown;
  markets: ({ question: string } & Record<string, unknown>)[];
  [field: string]: unknown;
}

/** A venue_b event as the fixture states it (trade API v2 field names), with where its wording came from. */
export interface StatedKalshiEvent {
  event_ticker: string;
  series_ticker: string;
  title: string;
  provenance?: unknown;
  markets: ({ ticker: string; title: string } & Record<string, unknown>)[];
  [field: string]: unknown;
}

export interface LabeledSet {
  venueA: StatedGammaEvent[];
  venueB: StatedKalshiEvent[];
  pairs: LabeledPair[];
}

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'cross-venue', 'labeled-pairs.json');

export function loadLabeledSet(): LabeledSet {
  const raw = JSON.parse(readFileSync(FIXTURE, 'utf8')) as {
    venue_a: StatedGammaEvent[];
    venue_b: StatedKalshiEvent[];
    pairs: LabeledPair[];
  };
  return { venueA: raw.venue_a, venueB: raw.venue_b, pairs: raw.pairs };
}

function digits(seed: string, n: number): string {
  let out = '';
  for (let i = 0; out.length < n; i += 1) {
    out += BigInt(`0x${createHash('sha256').update(`${seed}:${i}`).digest('hex')}`).toString();
  }
  return out.slice(0, n);
}

/** A stated venue_a event as Gamma's `/events` nests it: open, with condition and token ids and a quote. */
export function gammaEvent(e: StatedGammaEvent): GammaEventFixture {
  const { provenance: _p, ...stated } = e;
  return {
    ...stated,
    active: true,
    closed: false,
    markets: stated.markets.map((m, i) => {
      const seed = `${stated.id}:${i}`;
      const market: GammaMarketFixture = {
        id: `${stated.id}-${i}`,
        conditionId: `0x${createHash('sha256').update(seed).digest('hex')}`,
        outcomes: JSON.stringify(['Yes', 'No']),
        outcomePrices: JSON.stringify(['0.5', '0.5']),
        clobTokenIds: JSON.stringify([digits(`${seed}:yes`, 77), digits(`${seed}:no`, 77)]),
        bestBid: 0.49,
        bestAsk: 0.51,
        active: true,
        closed: false,
        endDate: stated.endDate,
        ...m,
      };
      if (Array.isArray(m.outcomes)) market.outcomes = JSON.stringify(m.outcomes);
      return market;
    }),
  };
}

/** A stated venue_b event as `/events?with_nested_markets=true` returns it: open markets with quotes. */
export function kalshiEvent(e: StatedKalshiEvent): KalshiEventFixture {
  const { provenance: _p, ...stated } = e;
  return {
    ...stated,
    markets: stated.markets.map((m): KalshiMarketFixture => ({
      event_ticker: stated.event_ticker,
      status: 'active',
      yes_bid: 48,
      yes_ask: 52,
      last_price: 50,
      ...m,
    })),
  };
}

/** The fake venues' data listing exactly these stated events (books, trades and holders from the default fixtures). */
export function venueDataFor(venueA: readonly StatedGammaEvent[], venueB: readonly StatedKalshiEvent[]): FakeVenueData {
  const base = loadVenueFixtures();
  return {
    venueA: { ...base.venueA, events: venueA.map(gammaEvent) },
    venueB: { ...base.venueB, events: venueB.map(kalshiEvent) },
  };
}
