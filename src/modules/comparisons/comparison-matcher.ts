import { bucketOf, subtagOf } from './comparison-taxonomy';
import type { Confidence, RelationshipType } from './comparisons.limits';
import {
  criteriaDifferences,
  quoteList,
  sourceDifferences,
  structureOf,
  type Difference,
  type DifferenceKind,
} from './match-differences';
import { contentStems, jaccard } from './match-text';
import { inPeriod, namedPeriod, relatePeriods, type Period } from './resolution-periods';
import {
  clock,
  compareOptions,
  compareSources,
  formatStrikes,
  fullText,
  isCombo,
  marketStrikes,
  sameStrikes,
  timeOfDay,
  titleTexts,
  type MatchSide,
} from './resolution-terms';
import { mentionsName, titleNames } from './match-names';

export type { MatchSide };
export type { Confidence, RelationshipType };

/**
 * The matcher's answer: `exact_match` (one resolution condition), `similar` (one topic, but the
 * period, strike, measure, source or criteria differ) or `different` (another subject, or a
 * multi-leg combo against a single question). The comparisons surface knows the first two only:
 * see {@link surfaceRelationship}.
 */
export type MatchRelationship = RelationshipType | 'different';

/** The matcher's verdict on a pair of venue events. */
export interface MatchVerdict {
  relationshipType: MatchRelationship;
  confidence: Confidence;
  /** In words: which of subject, outcome, period, close times, strikes, measure and source agreed, which not. */
  reasoning: string;
  bucket: string | null;
  subtag: string | null;
}

/** Kinds of difference that make two events different questions rather than variants of one. */
const UNRELATED: ReadonlySet<DifferenceKind> = new Set(['subject', 'structure']);

/**
 * Close times this far apart still agree. The venues set different close times for one question:
 * one closes before the announcement, the other at a nominal end date or after a window for a
 * postponed game, typically a day to a few days later. A week covers those; a different weekly,
 * monthly or yearly question names a different period, which is judged on its own.
 */
export const CLOSE_TOLERANCE_MS = 7 * 24 * 60 * 60 * 1000;
/** Beyond this gap, or below {@link WEAK_TOPIC} overlap, a similar pair needs review (low confidence). */
const FAR_CLOSE_MS = 45 * 24 * 60 * 60 * 1000;
/** Below this share of common content words the venues may not be on one topic at all (low confidence). */
const WEAK_TOPIC = 0.12;
/** Two dated price questions read at moments this far apart resolve differently ("noon ET" against "5 PM ET"). */
const SAME_MOMENT_MIN = 60;

function iso(d: Date): string {
  return d.toISOString().replace(':00.000Z', ' UTC').replace('T', ' ');
}

function within(p: Period): string {
  return p.kind === 'deadline' ? 'the deadline' : p.label;
}

function humanGap(ms: number): string {
  const hours = Math.round(ms / 3_600_000);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} days`;
}

/**
 * Texts a period is read from, the question's own wording first: the event's title, its markets'
 * titles and outcome labels ("Before October 2025"), then the event's subtitle, then the rules.
 */
function periodTexts(s: MatchSide): string[] {
  return [
    s.title,
    ...s.markets.flatMap((m) => [m.title, m.terms?.outcomeLabel ?? '']),
    s.subtitle ?? '',
    s.description,
    ...s.markets.map((m) => m.description ?? ''),
  ].filter((t) => t.length > 0);
}

/**
 * Who or what the question is about: a name each venue's title gives that the other never mentions
 * makes another subject; a name only one venue's title gives is returned (the pair is then not
 * named alike, which caps confidence at medium).
 */
function subject(
  a: MatchSide,
  b: MatchSide,
  textA: string,
  textB: string,
  agreed: string[],
  out: Difference[],
): string[] {
  const onlyA = titleNames(a.title).filter((n) => !mentionsName(textB, n));
  const onlyB = titleNames(b.title).filter((n) => !mentionsName(textA, n));
  if (onlyA.length > 0 && onlyB.length > 0) {
    out.push({
      kind: 'subject',
      detail:
        `the subject differs (venue_a names ${quoteList(onlyA)}, venue_b ${quoteList(onlyB)}, ` +
        'neither named by the other)',
    });
    return [];
  }
  // Events of named outcomes (candidates, teams, songs) must share one: a list of people is not a list of parties.
  const named = (s: MatchSide) =>
    s.markets.map((m) => m.terms?.outcomeLabel ?? '').filter((l) => titleNames(l).length > 0);
  const la = named(a);
  const lb = named(b);
  const mentioned = (labels: string[], text: string) =>
    labels.some((l) => titleNames(l).some((n) => mentionsName(text, n)));
  if (la.length > 0 && lb.length > 0 && !mentioned(la, textB) && !mentioned(lb, textA)) {
    out.push({
      kind: 'subject',
      detail: `the outcomes differ (venue_a lists ${quoteList(la.slice(0, 3))}, venue_b ${quoteList(lb.slice(0, 3))})`,
    });
    return [];
  }
  const surface = new Map<string, string>();
  const sa = contentStems(titleTexts(a).join(' '), false, surface);
  const shared = [...contentStems(titleTexts(b).join(' '))].filter((s) => sa.has(s)).map((s) => surface.get(s) ?? s);
  const unnamed = [...onlyA, ...onlyB];
  agreed.push(
    (shared.length > 0 ? `the subject agrees (${shared.slice(0, 4).join(', ')})` : 'no conflicting subject') +
      (unnamed.length > 0 ? `, though only one venue names ${quoteList(unnamed.slice(0, 3))}` : ''),
  );
  return unnamed;
}

/** The named periods, and the close times: agreeing when both fall in the named period or within the tolerance. */
function timeframe(
  a: MatchSide,
  b: MatchSide,
  agreed: string[],
  out: Difference[],
): { pa: Period | null; pb: Period | null } {
  const pa = namedPeriod(periodTexts(a), a.closeTime ?? b.closeTime);
  const pb = namedPeriod(periodTexts(b), b.closeTime ?? a.closeTime);
  let shared: Period | null = pa ?? pb;
  if (pa && pb) {
    const rel = relatePeriods(pa, pb);
    if (rel === 'differ') {
      shared = null;
      const mode = (p: Period) =>
        p.kind === 'deadline' ? 'by a deadline' : p.kind === 'day' ? 'on a given date' : null;
      const [ma, mb] = [mode(pa), mode(pb)];
      out.push({
        kind: 'timeframe',
        detail:
          ma && mb && ma !== mb
            ? `venue_a asks ${ma} while venue_b asks ${mb} (${pa.label} on venue_a, ${pb.label} on venue_b)`
            : `the period differs (${pa.label} on venue_a, ${pb.label} on venue_b)`,
      });
    } else {
      shared = pa.kind === 'year' ? pb : pa;
      agreed.push(
        rel === 'same' ? `the period agrees (${pa.label})` : `the period agrees (${pb.label} within ${pa.label})`,
      );
    }
  } else if (shared) {
    agreed.push(`only venue_${pa ? 'a' : 'b'} names a period (${shared.label})`);
  }
  if (!a.closeTime || !b.closeTime) {
    agreed.push('no close time to compare');
    return { pa, pb };
  }
  const gap = Math.abs(a.closeTime.getTime() - b.closeTime.getTime());
  const closes = `venue_a ${iso(a.closeTime)}, venue_b ${iso(b.closeTime)}`;
  if (gap === 0) agreed.push(`both close ${iso(a.closeTime)}`);
  else if (
    shared &&
    inPeriod(a.closeTime.getTime(), shared, CLOSE_TOLERANCE_MS) &&
    inPeriod(b.closeTime.getTime(), shared, CLOSE_TOLERANCE_MS)
  )
    agreed.push(`close times agree (${closes}: both within ${within(shared)} or 7 days after)`);
  else if (gap <= CLOSE_TOLERANCE_MS)
    agreed.push(`close times agree (${closes}: ${humanGap(gap)} apart, within the 7-day tolerance)`);
  else
    out.push({
      kind: 'timeframe',
      detail: `venue_a closes ${iso(a.closeTime)} and venue_b ${iso(b.closeTime)} (${humanGap(gap)} apart)`,
    });
  return { pa, pb };
}

/** The strikes each market is decided at: some market of each venue must share its strikes with the other's. */
function strikes(a: MatchSide, b: MatchSide, agreed: string[], out: Difference[]): boolean {
  const single = a.markets.length === 1 && b.markets.length === 1;
  const of = (s: MatchSide) =>
    s.markets.map((m) => marketStrikes(m, single ? s.title : '')).filter((x) => x.length > 0);
  const sa = of(a);
  const sb = of(b);
  const shown = (views: number[][][]) => formatStrikes(views.map((v) => v[0]).flat());
  if (sa.length > 0 && sb.length > 0) {
    const common = sa.filter((x) => sb.some((y) => x.some((vx) => y.some((vy) => sameStrikes(vx, vy)))));
    if (common.length === 0) {
      out.push({ kind: 'strike', detail: `the strikes differ (${shown(sa)} on venue_a, ${shown(sb)} on venue_b)` });
    } else {
      agreed.push(
        single || (sa.length === 1 && sb.length === 1)
          ? `the strike agrees (${shown(common)})`
          : `${common.length} of venue_a's ${sa.length} strikes are venue_b's too`,
      );
    }
    return true;
  }
  if (single && (sa.length > 0 || sb.length > 0)) {
    const [venue, values] = sa.length > 0 ? ['venue_a', sa] : ['venue_b', sb];
    out.push({ kind: 'strike', detail: `only ${venue} names a strike (${shown(values)})` });
  } else {
    agreed.push('neither names a strike');
  }
  return false;
}

/**
 * Compares two venue events and decides how far their resolution conditions agree, on what
 * decides a market's outcome: the subject and the outcome asked for, the period the question
 * names (close times agreeing when both fall in it or within {@link CLOSE_TOLERANCE_MS}), the
 * strikes, the measured quantity, the stated resolution source, excluded criteria, and whether a
 * market combines several questions. `exact_match` needs every one of them to agree; confidence
 * then reflects how well topic, market structure and categories line up. Deterministic: the same
 * texts give the same verdict, and the reasoning names what agreed and what did not.
 */
export function matchVenueEvents(a: MatchSide, b: MatchSide): MatchVerdict {
  const textA = fullText(a);
  const textB = fullText(b);
  const agreed: string[] = [];
  const differences: Difference[] = [];
  const notes: string[] = [];

  const comboA = a.markets.some(isCombo);
  const comboB = b.markets.some(isCombo);
  if (comboA !== comboB) {
    const [combo, single] = comboA ? ['venue_a', 'venue_b'] : ['venue_b', 'venue_a'];
    differences.push({
      kind: 'structure',
      detail: `${combo}'s market combines several questions (a multi-leg combo) while ${single}'s asks one`,
    });
  }
  const unnamed = subject(a, b, textA, textB, agreed, differences);
  for (const o of compareOptions(a, b)) {
    const kind: DifferenceKind = ['the direction', 'the rate decision', 'the bet'].includes(o.name)
      ? 'outcome'
      : 'measure';
    if (o.agree) agreed.push(`${o.name} agrees (${o.a.filter((x) => o.b.includes(x)).join('/')})`);
    else if (o.minor)
      notes.push(`${o.name} is read as ${o.a.join('/')} on venue_a and ${o.b.join('/')} on venue_b, one quantity`);
    else
      differences.push({
        kind,
        detail: `${o.name} differs (${o.a.join('/')} on venue_a, ${o.b.join('/')} on venue_b)`,
      });
  }
  const { pa, pb } = timeframe(a, b, agreed, differences);
  const bothStrike = strikes(a, b, agreed, differences);
  if (bothStrike && pa?.kind === 'day' && pb?.kind === 'day') {
    const ta = timeOfDay(textA);
    const tb = timeOfDay(textB);
    if (ta !== null && tb !== null && Math.abs(ta - tb) >= SAME_MOMENT_MIN) {
      differences.push({
        kind: 'timeframe',
        detail: `venue_a reads the price at ${clock(ta)} and venue_b at ${clock(tb)}`,
      });
    } else if (ta !== null && tb !== null) agreed.push(`both read the price at ${clock(ta)}`);
  }
  differences.push(...criteriaDifferences(textA, textB));
  for (const s of compareSources(a, b)) {
    if (s.agree) agreed.push(`${s.name} agrees (${s.a.filter((x) => s.b.includes(x)).join(', ')})`);
    else if (s.decisive)
      differences.push({
        kind: 'source',
        detail: `${s.name} differs (${s.a.join(', ')} on venue_a, ${s.b.join(', ')} on venue_b)`,
      });
    else
      notes.push(
        `${s.name} differs (${s.a.join(', ')} on venue_a, ${s.b.join(', ')} on venue_b), which alone does not decide`,
      );
  }
  differences.push(...sourceDifferences(a, b, textA, textB));

  const topic = jaccard(contentStems(`${a.title} ${a.description}`), contentStems(`${b.title} ${b.description}`));
  const titleTopic = jaccard(contentStems(titleTexts(a).join(' ')), contentStems(titleTexts(b).join(' ')));
  const overlap = Math.max(topic, titleTopic, jaccard(contentStems(textA), contentStems(textB)));
  const structure = structureOf(a, b);
  const bucket = bucketOf(a.category) ?? bucketOf(b.category);
  const sameCategory = bucketOf(a.category) === bucketOf(b.category);
  const subtag = subtagOf(bucket, [`${a.title}. ${b.title}`, `${textA}. ${textB}`]);
  const topicNote = `topic overlap ${Math.round(overlap * 100)}%`;
  const categoryNote = sameCategory ? '' : `; categories differ (${a.category} / ${b.category})`;
  const agreeing = [...agreed, ...notes].join('; ');

  if (differences.length === 0) {
    // Notes (two price feeds, a close and an average) are stated, but by definition do not decide.
    // High confidence needs the same structure and category, and every name in either title on both venues.
    const confidence: Confidence =
      overlap < WEAK_TOPIC ? 'low' : structure.same && sameCategory && unnamed.length === 0 ? 'high' : 'medium';
    return {
      relationshipType: 'exact_match',
      confidence,
      reasoning:
        `Same resolution condition on both venues: ${agreeing}; ${structure.detail}, no excluded or ` +
        `conflicting criteria (${topicNote})${categoryNote}.`,
      bucket,
      subtag,
    };
  }
  const detail = differences.map((d) => d.detail).join('; ');
  const context = `(agreeing: ${agreeing}; ${topicNote}; ${structure.detail})${categoryNote}`;
  if (differences.some((d) => UNRELATED.has(d.kind))) {
    return {
      relationshipType: 'different',
      confidence: overlap < WEAK_TOPIC ? 'low' : 'medium',
      reasoning: `Different questions: ${detail} ${context}.`,
      bucket,
      subtag,
    };
  }
  const gap = a.closeTime && b.closeTime ? Math.abs(a.closeTime.getTime() - b.closeTime.getTime()) : 0;
  return {
    relationshipType: 'similar',
    confidence: overlap < WEAK_TOPIC || gap > FAR_CLOSE_MS ? 'low' : 'medium',
    reasoning: `Same topic, different resolution: ${detail} ${context}.`,
    bucket,
    subtag,
  };
}

/**
 * A verdict as the comparisons surface states it (its relationship is `exact_match` or
 * `similar`): a pair the matcher finds different is at most similar, with low confidence.
 */
export function surfaceRelationship(v: MatchVerdict): { relationshipType: RelationshipType; confidence: Confidence } {
  return v.relationshipType === 'different'
    ? { relationshipType: 'similar', confidence: 'low' }
    : { relationshipType: v.relationshipType, confidence: v.confidence };
}
