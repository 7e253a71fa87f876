/**
 * Differences and structure the cross-venue matcher reads off whole texts: criteria one venue rules
 * out that the other counts, a source one venue's title cites against the other's own, and whether
 * both list the same markets. Pure and deterministic.
 */

import { clauseTerms, mentions, properNames, titleAcronyms, type ClauseTerms } from './match-text';
import { marketStrikes, type MatchSide } from './resolution-terms';

export type DifferenceKind =
  'subject' | 'structure' | 'outcome' | 'timeframe' | 'strike' | 'criteria' | 'measure' | 'source';

export interface Difference {
  kind: DifferenceKind;
  detail: string;
}

/**
 * Places, time zones and measure words, not sources: a venue naming the country the other implies,
 * its clock ("EST") or "YoY" (judged as the rate of change) says nothing about the source.
 */
const NOT_SOURCES = new Set([
  'us',
  'usa',
  'uk',
  'eu',
  'un',
  'yoy',
  'mom',
  'qoq',
  'et',
  'est',
  'edt',
  'pt',
  'pst',
  'pdt',
  'utc',
  'gmt',
]);

export function quoteList(items: readonly string[]): string {
  return items.map((i) => `"${i}"`).join(', ');
}

export /** Terms one venue rules out ("intraday highs do not count") that the other resolves on. */
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

export /**
 * A name or acronym one venue puts in its title ("RCP", "EIA") that the other never mentions,
 * while the other names something of its own the first never mentions ("Silver Bulletin"): the
 * venues cite different sources. A one-sided extra name ("US", "NASA") is just more detailed wording.
 */
function sourceDifferences(a: MatchSide, b: MatchSide, textA: string, textB: string): Difference[] {
  const missing = (title: string, other: string) =>
    titleAcronyms(title).filter((w) => !NOT_SOURCES.has(w) && !mentions(other, w));
  const ownNames = (text: string, other: string) => properNames(text).filter((w) => !mentions(other, w));
  type Side = { venue: string; title: string; text: string };
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

export /**
 * Whether both venues list the same markets: the same count, and for ladders
 * (every market names one number) the same strikes.
 */
function structureOf(a: MatchSide, b: MatchSide): { same: boolean; detail: string } {
  const strikesOf = (s: MatchSide) => s.markets.map((m) => marketStrikes(m)[0] ?? []);
  const ladder = (all: number[][]) => all.length > 1 && all.every((x) => x.length === 1);
  const sa = strikesOf(a);
  const sb = strikesOf(b);
  const count = a.markets.length === b.markets.length;
  let detail = '';
  let sameStrikesAll = true;
  if (ladder(sa) && ladder(sb)) {
    const fa = sa.flat().sort((x, y) => x - y);
    const fb = sb.flat().sort((x, y) => x - y);
    sameStrikesAll = fa.length === fb.length && fa.every((v, i) => v === fb[i]);
    detail = sameStrikesAll ? ' with the same strikes' : ' with different strikes';
  }
  if (count && sameStrikesAll) {
    return {
      same: true,
      detail: a.markets.length === 1 ? 'one market each' : `${a.markets.length} markets each${detail}`,
    };
  }
  return { same: false, detail: `${a.markets.length} markets on venue_a and ${b.markets.length} on venue_b${detail}` };
}
