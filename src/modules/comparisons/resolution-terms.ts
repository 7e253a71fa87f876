/**
 * What decides a market's outcome, read from what its venue publishes: the strikes, the outcome
 * asked for (a cut or a hold, above or below), qualifiers of the measured quantity (core or
 * headline, popular vote or electoral college, a spread or the winner), the resolution source
 * (a weather station, a price feed), the time of day a dated question resolves at, the names it is
 * about, and whether a market combines several questions. Pure and deterministic.
 */

import type { MarketTerms } from '../../venues/venue.models';
import { clauseTerms, stem, thresholds, words } from './match-text';

/** What the matcher reads of one venue's event: only what the venue publishes. */
export interface MatchSide {
  venueEventId: string;
  title: string;
  description: string;
  category: string;
  closeTime: Date | null;
  subtitle?: string | null;
  resolutionSource?: string | null;
  markets: readonly { title: string; description: string | null; terms?: MarketTerms }[];
}

/** The event's own wording that names its question: title, subtitle, market titles and outcome labels. */
export function titleTexts(s: MatchSide): string[] {
  return [s.title, s.subtitle ?? '', ...s.markets.flatMap((m) => [m.title, m.terms?.outcomeLabel ?? ''])].filter(
    (t) => t.length > 0,
  );
}

/** The question and its rules as the venue words them (not the secondary rules on settlement mechanics). */
export function ruleText(s: MatchSide): string {
  return [...titleTexts(s), s.description, ...s.markets.map((m) => m.description ?? '')]
    .filter((t) => t.length > 0)
    .join('. ');
}

/** Everything the venue says about the event: its wording, rules, stated sources. */
export function fullText(s: MatchSide): string {
  return [
    ...titleTexts(s),
    s.description,
    s.resolutionSource ?? '',
    ...s.markets.flatMap((m) => [m.description ?? '', m.terms?.rulesSecondary ?? '', m.terms?.resolutionSource ?? '']),
  ]
    .filter((t) => t.length > 0)
    .join('. ');
}

/* ------------------------------------------------------------------ strikes */

/** Times of day, quarters and chart ranks are not strikes ("12:00 ET", "4pm", "Q1", "#1"). */
function strikeText(text: string): string {
  return text
    .replace(/\b\d{1,2}(?::\d{2})?\s*(?:a\.?m\.?|p\.?m\.?)(?![a-z])/gi, ' ')
    .replace(/\b\d{1,2}:\d{2}\b/g, ' ')
    .replace(/\bQ[1-4]\b/g, ' ')
    .replace(/#\s*\d+/g, ' ')
    .replace(/\b(?:year|month)-over-(?:year|month)\b/gi, ' ');
}

/**
 * The numbers a market is decided at, as each part of its listing states them: its outcome label
 * ("46° or above"), its title (">45°"), its strike fields (greater than 45). One strike reads
 * differently in each; a market matches another when any reading of one matches any of the other.
 * A market stating none takes its single-market event's title.
 */
export function marketStrikes(m: MatchSide['markets'][number], eventTitle = ''): number[][] {
  const strike = m.terms?.strike;
  const views = [
    m.terms?.outcomeLabel ? thresholds(strikeText(m.terms.outcomeLabel)) : [],
    thresholds(strikeText(m.title)),
    [strike?.floor, strike?.cap].filter((v): v is number => typeof v === 'number'),
  ].filter((v) => v.length > 0);
  if (views.length === 0 && eventTitle) {
    const fromEvent = thresholds(strikeText(eventTitle));
    if (fromEvent.length > 0) views.push(fromEvent);
  }
  return views;
}

/**
 * Strikes closer than this are one strike: venue_b states a greater-than strike a cent below the
 * round number ("above 149999.99" for $150,000), while real strike ladders step by far more.
 */
const STRIKE_TOLERANCE = 0.01 + 1e-9;

/** Two readings ask at the same strikes when one's numbers are all among the other's ("51°" and "50°, 51°"). */
export function sameStrikes(x: readonly number[], y: readonly number[]): boolean {
  const [small, big] = x.length <= y.length ? [x, y] : [y, x];
  return small.every((v) => big.some((w) => Math.abs(v - w) <= STRIKE_TOLERANCE));
}

export function formatStrikes(values: readonly number[]): string {
  return [...new Set(values)]
    .sort((a, b) => a - b)
    .map((v) => String(v))
    .join(', ');
}

/* ------------------------------------------------------------------ predicates and qualifiers */

interface OptionGroup {
  /** How the difference reads: "the direction differs (above on venue_a, below on venue_b)". */
  name: string;
  /** Read from the titles (the question asked) or from all the venue's text (rules included). */
  scope: 'titles' | 'text';
  options: Record<string, RegExp>;
  /** The option a side that names none of them takes ("winner" for a game market that names no spread). */
  otherwise?: string;
  /** Options that read one quantity two ways (a one-minute close, a sixty-second average): a note, not a difference. */
  minor?: readonly (readonly string[])[];
}

/**
 * Mutually exclusive options of what is asked: two venues naming different options of one group
 * ask different questions. Titles carry the outcome asked for; rules carry the measure.
 */
const OPTION_GROUPS: readonly OptionGroup[] = [
  {
    name: 'the direction',
    scope: 'titles',
    options: {
      above: /\b(?:above|over|higher|greater|more than|at least|exceeds?|or more)\b|[>≥]|\d\s*\+/i,
      below: /\b(?:below|under|lower|less than|at most|or less|fewer)\b|[<≤]/i,
    },
  },
  {
    name: 'the rate decision',
    scope: 'titles',
    options: {
      cut: /\b(?:cuts?|decreases?|lowers?|reduces?)\b/i,
      hike: /\b(?:hikes?|raises?|increases?)\b/i,
      hold: /\b(?:holds?|unchanged|no change|pauses?)\b/i,
    },
  },
  {
    name: 'the bet',
    scope: 'titles',
    options: {
      spread: /\b(?:spread|wins? by (?:more than |over )?[\d.]+|by (?:more than|over) [\d.]+ points?)\b/i,
      total: /\b(?:total points|combined points|points scored|over\/under|o\/u)\b/i,
    },
    otherwise: 'winner',
  },
  {
    name: 'the round',
    scope: 'titles',
    options: { 'first round': /\b(?:first|1st) round\b/i, runoff: /\b(?:runoff|run-off|second round|2nd round)\b/i },
    otherwise: 'the final result',
  },
  {
    name: 'the division',
    scope: 'titles',
    options: { "women's": /\b(?:women'?s?|wnba|wta|nwsl)\b/i },
    otherwise: "men's or open",
  },
  {
    name: 'the election measure',
    scope: 'text',
    options: { 'popular vote': /\bpopular vote\b/i, 'electoral college': /\belectoral (?:college|votes?)\b/i },
    otherwise: 'electoral college',
  },
  {
    name: 'the headline or core figure',
    scope: 'text',
    options: { headline: /\bheadline\b/i, core: /\bcore\b/i },
    otherwise: 'headline',
  },
  {
    name: 'the rate of change',
    scope: 'text',
    options: {
      'year-over-year': /\b(?:year over year|yoy|12-month|12 month|annual)\b/i,
      'month-over-month': /\b(?:month over month|mom)\b/i,
    },
  },
  {
    name: 'the geographic scope',
    scope: 'text',
    options: { domestic: /\b(?:domestic|usa)\b/i, worldwide: /\b(?:worldwide|global|globally|international)\b/i },
  },
  {
    name: 'the sampling frequency',
    scope: 'text',
    options: {
      intraday: /\b(?:minute|intraday)\b/i,
      hourly: /\bhourly\b/i,
      daily: /\bdaily\b/i,
      weekly: /\bweekly\b/i,
      monthly: /\bmonthly\b/i,
    },
  },
  {
    name: 'the statistic',
    scope: 'text',
    options: {
      close: /\b(?:close|closes|closing)\b/i,
      extreme: /\b(?:high|highest|low|lowest|minimum|maximum|peak)\b/i,
      average: /\b(?:average|mean)\b/i,
    },
    minor: [['close', 'average']],
  },
];

/** The parts of a text it affirms: "not on a closing price", "Intraday highs do not count" dropped. */
function affirmed(text: string): string {
  return clauseTerms(text).affirmedText;
}

export interface OptionComparison {
  name: string;
  a: string[];
  b: string[];
  agree: boolean;
  /** The options differ only as two readings of one quantity (see {@link OptionGroup.minor}). */
  minor: boolean;
}

/** Each option group either venue names, with the options each names and whether they share one. */
export function compareOptions(a: MatchSide, b: MatchSide): OptionComparison[] {
  const read = (s: MatchSide, g: OptionGroup) => {
    // Titles as written (symbols such as ">" count); the rest as it affirms ("not core CPI" is no mention of core).
    const text = (g.scope === 'titles' ? titleTexts(s).join('. ') : affirmed(ruleText(s))).replace(
      /\b(year|month)-over-(year|month)\b/gi,
      '$1 over $2',
    );
    const named = Object.entries(g.options)
      .filter(([, re]) => re.test(g.name === 'the direction' ? text.replace(/\b(?:year|month) over /gi, ' ') : text))
      .map(([option]) => option);
    return named.length > 0 ? named : g.otherwise ? [g.otherwise] : [];
  };
  const out: OptionComparison[] = [];
  for (const g of OPTION_GROUPS) {
    const oa = read(a, g);
    const ob = read(b, g);
    if (oa.length === 0 || ob.length === 0) continue;
    // A default on both sides says nothing: neither venue speaks of the group.
    if (g.otherwise && oa.length === 1 && ob.length === 1 && oa[0] === g.otherwise && ob[0] === g.otherwise) continue;
    const agree = oa.some((o) => ob.includes(o));
    const minor = !agree && (g.minor ?? []).some((pair) => [...oa, ...ob].every((o) => pair.includes(o)));
    out.push({ name: g.name, a: oa, b: ob, agree, minor });
  }
  return out;
}

/* ------------------------------------------------------------------ sources */

interface SourceFamily {
  name: string;
  /** A weather station decides a temperature; two price feeds of one asset track one price. */
  decisive: boolean;
  options: Record<string, RegExp>;
}

const SOURCE_FAMILIES: readonly SourceFamily[] = [
  {
    name: 'the weather station',
    decisive: true,
    options: {
      'Central Park': /\bcentral park\b|\bknyc\b/i,
      LaGuardia: /\bla ?guardia\b|\bklga\b/i,
      JFK: /\bjfk\b|\bkjfk\b|\bkennedy (?:international )?airport\b/i,
      Newark: /\bnewark\b|\bkewr\b/i,
      Midway: /\bmidway\b|\bkmdw\b/i,
      "O'Hare": /\bo'?hare\b|\bkord\b/i,
      'Los Angeles Airport': /\blax\b|\bklax\b|\blos angeles international\b/i,
      'Downtown Los Angeles': /\bdowntown los angeles\b|\bkcqt\b/i,
      'Miami Airport': /\bmiami international\b|\bkmia\b/i,
      'Austin-Bergstrom': /\bbergstrom\b|\bkaus\b/i,
      'Camp Mabry': /\bcamp mabry\b|\bkatt\b/i,
      'Philadelphia Airport': /\bphiladelphia international\b|\bkphl\b/i,
      'Denver Airport': /\bdenver international\b|\bkden\b/i,
      'Logan Airport': /\blogan\b|\bkbos\b/i,
    },
  },
  {
    name: 'the climate dataset',
    decisive: true,
    options: {
      'NASA GISTEMP': /\bgistemp\b/i,
      NOAA: /\bnoaa\b|\bncei\b/i,
      Copernicus: /\bcopernicus\b|\bera5\b/i,
      'Berkeley Earth': /\bberkeley earth\b/i,
      'Met Office': /\bmet office\b|\bhadcrut\b/i,
    },
  },
  {
    name: 'the price source',
    decisive: false,
    options: {
      Binance: /\bbinance\b/i,
      Coinbase: /\bcoinbase\b/i,
      'CF Benchmarks': /\bcf benchmarks\b|\bbrti\b|\breal-?time index\b/i,
      Chainlink: /\bchainlink\b/i,
      Kraken: /\bkraken\b/i,
      Pyth: /\bpyth\b/i,
    },
  },
];

export interface SourceComparison {
  name: string;
  decisive: boolean;
  a: string[];
  b: string[];
  agree: boolean;
}

/** Each source family both venues name, with the sources each names. */
export function compareSources(a: MatchSide, b: MatchSide): SourceComparison[] {
  // Sources are read from the words as written (URLs and station codes included), minus what a venue rules out.
  const read = (s: MatchSide, f: SourceFamily) => {
    const text = fullText(s);
    const ruledOut = clauseTerms(text).excluded;
    return Object.entries(f.options)
      .filter(([option, re]) => re.test(text) && !words(option).every((w) => ruledOut.has(stem(w))))
      .map(([option]) => option);
  };
  const out: SourceComparison[] = [];
  for (const f of SOURCE_FAMILIES) {
    const sa = read(a, f);
    const sb = read(b, f);
    if (sa.length === 0 || sb.length === 0) continue;
    out.push({ name: f.name, decisive: f.decisive, a: sa, b: sb, agree: sa.some((o) => sb.includes(o)) });
  }
  return out;
}

/* ------------------------------------------------------------------ time of day */

/** The first time of day a text names, in minutes after midnight ("noon", "12:00 PM ET", "5pm", "17:00"). */
export function timeOfDay(text: string): number | null {
  const found: { at: number; minutes: number }[] = [];
  for (const m of text.matchAll(/\b(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)(?![a-z])/gi)) {
    const h = Number(m[1]) % 12;
    const pm = m[3].toLowerCase().startsWith('p');
    found.push({ at: m.index ?? 0, minutes: (h + (pm ? 12 : 0)) * 60 + Number(m[2] ?? 0) });
  }
  for (const m of text.matchAll(/\b(\d{1,2}):(\d{2})(?!\s*(?:a\.?m|p\.?m))/gi)) {
    if (Number(m[1]) < 24) found.push({ at: m.index ?? 0, minutes: Number(m[1]) * 60 + Number(m[2]) });
  }
  for (const m of text.matchAll(/\b(noon|midnight)\b/gi)) {
    found.push({ at: m.index ?? 0, minutes: m[1].toLowerCase() === 'noon' ? 720 : 0 });
  }
  found.sort((x, y) => x.at - y.at);
  return found.length > 0 ? found[0].minutes : null;
}

export function clock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/* ------------------------------------------------------------------ combos and names */

/** A multivariate market: legs stated by the venue, or a title listing several "yes X" picks. */
export function isCombo(m: MatchSide['markets'][number]): boolean {
  if ((m.terms?.legs ?? 1) > 1) return true;
  return /^(?:yes|no) [^,]+(?:,\s*(?:yes|no) [^,]+)+$/i.test(m.title.trim());
}
