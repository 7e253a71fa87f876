import { bucketOf, subtagOf } from './comparison-taxonomy';
import type { Confidence, RelationshipType } from './comparisons.limits';
import {
  clauseTerms,
  contentStems,
  jaccard,
  mentions,
  properNames,
  thresholds,
  titleAcronyms,
  type ClauseTerms,
} from './match-text';

/** What the matcher reads of one venue's event: only what the venue publishes. */
export interface MatchSide {
  venueEventId: string;
  title: string;
  description: string;
  category: string;
  closeTime: Date | null;
  markets: readonly { title: string; description: string | null }[];
}

export type { Confidence, RelationshipType };

/** The matcher's verdict on a pair of venue events grouped under one core event. */
export interface MatchVerdict {
  relationshipType: RelationshipType;
  confidence: Confidence;
  reasoning: string;
  bucket: string | null;
  subtag: string | null;
}

type DifferenceKind = 'timeframe' | 'criteria' | 'measure' | 'source';

interface Difference {
  kind: DifferenceKind;
  detail: string;
}

/** Close times within this distance count as the same deadline (venues round differently). */
const SAME_CLOSE_MS = 60 * 60 * 1000;
/** Beyond this gap, or below {@link WEAK_TOPIC} overlap, a similar pair needs review. */
const FAR_CLOSE_MS = 45 * 24 * 60 * 60 * 1000;
const WEAK_TOPIC = 0.12;

/** Mutually exclusive qualifiers: two venues naming different options of one group measure different things. */
const QUALIFIER_GROUPS: Record<string, Record<string, readonly string[]>> = {
  'the headline or core figure': { headline: ['headline'], core: ['core'] },
  'the geographic scope': { domestic: ['domestic'], worldwide: ['worldwide', 'global', 'international', 'globally'] },
  'the sampling frequency': {
    intraday: ['minute', 'intraday'],
    hourly: ['hourly'],
    daily: ['daily'],
    weekly: ['weekly'],
    monthly: ['monthly'],
  },
  'the statistic': {
    close: ['close', 'closes', 'closing'],
    extreme: ['high', 'highest', 'low', 'lowest', 'minimum', 'maximum', 'peak'],
    average: ['average', 'mean'],
  },
};

/** Places, not sources: a venue naming the country the other implies says nothing about criteria. */
const PLACE_ACRONYMS = new Set(['us', 'usa', 'uk', 'eu', 'un']);

const DEADLINE = /\b(?:by|before)\s+(?:the\s+end\s+of\s+)?(?:[A-Z][a-z]{2,8}\.?\s+\d|\d{1,2}\/\d)/;
const ON_DATE = /\b(?:on|at)\s+(?:noon\s+ET\s+on\s+)?[A-Z][a-z]{2,8}\.?\s+\d/;

function fullText(s: MatchSide): string {
  return [s.title, s.description, ...s.markets.flatMap((m) => [m.title, m.description ?? ''])].join('. ');
}

function iso(d: Date): string {
  return d.toISOString().replace(':00.000Z', ' UTC').replace('T', ' ');
}

function humanGap(ms: number): string {
  const hours = Math.round(ms / 3_600_000);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} days`;
}

function timeframeDifferences(a: MatchSide, b: MatchSide): Difference[] {
  const out: Difference[] = [];
  if (a.closeTime && b.closeTime && Math.abs(a.closeTime.getTime() - b.closeTime.getTime()) > SAME_CLOSE_MS) {
    const gap = humanGap(Math.abs(a.closeTime.getTime() - b.closeTime.getTime()));
    out.push({
      kind: 'timeframe',
      detail: `venue_a closes ${iso(a.closeTime)} and venue_b ${iso(b.closeTime)} (${gap} apart)`,
    });
  }
  const mode = (t: string) => (DEADLINE.test(t) ? 'by a deadline' : ON_DATE.test(t) ? 'on a given date' : undefined);
  const ma = mode(a.title);
  const mb = mode(b.title);
  if (ma && mb && ma !== mb) out.push({ kind: 'timeframe', detail: `venue_a asks ${ma} while venue_b asks ${mb}` });
  return out;
}

/** Terms one venue rules out ("intraday highs do not count") that the other resolves on. */
function criteriaDifferences(textA: string, textB: string): Difference[] {
  const ta = clauseTerms(textA);
  const tb = clauseTerms(textB);
  const out: Difference[] = [];
  const hit = (excluder: ClauseTerms, other: ClauseTerms) =>
    [...excluder.excluded]
      .filter((s) => other.affirmed.has(s))
      .map((s) => excluder.surface.get(s) ?? s)
      .sort();
  const byB = hit(tb, ta);
  const byA = hit(ta, tb);
  if (byB.length > 0)
    out.push({ kind: 'criteria', detail: `venue_b rules out ${quoteList(byB)}, which venue_a counts` });
  if (byA.length > 0)
    out.push({ kind: 'criteria', detail: `venue_a rules out ${quoteList(byA)}, which venue_b counts` });
  return out;
}

function qualifiers(text: string): Map<string, Set<string>> {
  const ws = new Set(clauseTerms(text).affirmedWords);
  const out = new Map<string, Set<string>>();
  for (const [group, options] of Object.entries(QUALIFIER_GROUPS)) {
    for (const [option, triggers] of Object.entries(options)) {
      if (triggers.some((t) => ws.has(t))) {
        const set = out.get(group) ?? new Set<string>();
        set.add(option);
        out.set(group, set);
      }
    }
  }
  return out;
}

function measureDifferences(textA: string, textB: string): Difference[] {
  const qa = qualifiers(textA);
  const qb = qualifiers(textB);
  const out: Difference[] = [];
  for (const [group, optsA] of qa) {
    const optsB = qb.get(group);
    if (!optsB || [...optsA].some((o) => optsB.has(o))) continue;
    out.push({
      kind: 'measure',
      detail: `${group} differs (${[...optsA].join('/')} on venue_a, ${[...optsB].join('/')} on venue_b)`,
    });
  }
  return out;
}

/**
 * A name or acronym one venue puts in its title ("RCP", "EIA") that the other
 * never mentions, while the other names something of its own the first never
 * mentions ("Silver Bulletin"): the venues cite different sources. A one-sided
 * extra name ("US", "NASA") is just more detailed wording.
 */
function sourceDifferences(a: MatchSide, b: MatchSide, textA: string, textB: string): Difference[] {
  const missing = (title: string, other: string) =>
    titleAcronyms(title).filter((w) => !PLACE_ACRONYMS.has(w) && !mentions(other, w));
  const ownNames = (text: string, other: string) => properNames(text).filter((w) => !mentions(other, w));
  type Side = { venue: string; title: string; text: string };
  // One direction: `one`'s title cites names `other` never mentions, while `other` names its own.
  const oneWay = (one: Side, other: Side): Difference[] => {
    const cited = missing(one.title, other.text);
    const theirs = cited.length > 0 ? ownNames(other.text, one.text) : [];
    if (theirs.length === 0) return [];
    const where = `where ${other.venue} cites ${quoteList(theirs.slice(0, 3))}`;
    return [{ kind: 'source', detail: `${one.venue}'s title cites ${quoteList(cited)} ${where}` }];
  };
  const sideA = { venue: 'venue_a', title: a.title, text: textA };
  const sideB = { venue: 'venue_b', title: b.title, text: textB };
  return [...oneWay(sideB, sideA), ...oneWay(sideA, sideB)];
}

function quoteList(items: readonly string[]): string {
  return items.map((i) => `"${i}"`).join(', ');
}

/**
 * Whether both venues list the same markets: the same count, and for ladders
 * (every market names one number) the same strikes.
 */
function structureOf(a: MatchSide, b: MatchSide): { same: boolean; detail: string } {
  const strikesOf = (s: MatchSide) => s.markets.map((m) => thresholds(m.title));
  const ladder = (all: number[][]) => all.length > 1 && all.every((x) => x.length === 1);
  const sa = strikesOf(a);
  const sb = strikesOf(b);
  const count = a.markets.length === b.markets.length;
  let strikes = '';
  let sameStrikes = true;
  if (ladder(sa) && ladder(sb)) {
    const fa = sa.flat().sort((x, y) => x - y);
    const fb = sb.flat().sort((x, y) => x - y);
    sameStrikes = fa.length === fb.length && fa.every((v, i) => v === fb[i]);
    strikes = sameStrikes ? ' with the same strikes' : ' with different strikes';
  }
  if (count && sameStrikes) {
    return {
      same: true,
      detail: a.markets.length === 1 ? 'one market each' : `${a.markets.length} markets each${strikes}`,
    };
  }
  return { same: false, detail: `${a.markets.length} markets on venue_a and ${b.markets.length} on venue_b${strikes}` };
}

/**
 * Compares two venue events already grouped as one question and decides how
 * far their resolution conditions agree. Deterministic: the same texts give
 * the same verdict. `exact_match` needs no difference of timeframe, excluded
 * criteria, measured quantity or named source; confidence then reflects how
 * well the market structure and categories line up.
 */
export function matchVenueEvents(a: MatchSide, b: MatchSide): MatchVerdict {
  const textA = fullText(a);
  const textB = fullText(b);
  const differences = [
    ...timeframeDifferences(a, b),
    ...criteriaDifferences(textA, textB),
    ...measureDifferences(textA, textB),
    ...sourceDifferences(a, b, textA, textB),
  ];
  const topic = jaccard(contentStems(`${a.title} ${a.description}`), contentStems(`${b.title} ${b.description}`));
  const marketTopic = jaccard(contentStems(textA), contentStems(textB));
  const overlap = Math.max(topic, marketTopic);
  const structure = structureOf(a, b);
  const bucket = bucketOf(a.category) ?? bucketOf(b.category);
  const sameCategory = bucketOf(a.category) === bucketOf(b.category);
  const subtag = subtagOf(bucket, [`${a.title}. ${b.title}`, `${textA}. ${textB}`]);
  const topicNote = `topic overlap ${Math.round(overlap * 100)}%`;
  const categoryNote = sameCategory ? '' : `; categories differ (${a.category} / ${b.category})`;

  if (differences.length === 0) {
    const confidence: Confidence = overlap < WEAK_TOPIC ? 'low' : structure.same && sameCategory ? 'high' : 'medium';
    const closes = a.closeTime && b.closeTime ? `both close ${iso(a.closeTime)}` : 'no close time to compare';
    return {
      relationshipType: 'exact_match',
      confidence,
      reasoning:
        `Same resolution condition on both venues: ${closes}, ${structure.detail}, no excluded or ` +
        `conflicting criteria (${topicNote})${categoryNote}.`,
      bucket,
      subtag,
    };
  }
  const gap = a.closeTime && b.closeTime ? Math.abs(a.closeTime.getTime() - b.closeTime.getTime()) : 0;
  const confidence: Confidence = overlap < WEAK_TOPIC || gap > FAR_CLOSE_MS ? 'low' : 'medium';
  return {
    relationshipType: 'similar',
    confidence,
    reasoning:
      `Same topic, different resolution: ${differences.map((d) => d.detail).join('; ')} (${topicNote}; ` +
      `${structure.detail})${categoryNote}.`,
    bucket,
    subtag,
  };
}
