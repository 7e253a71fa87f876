/**
 * Text features the cross-venue matcher compares: content stems, the terms a
 * text explicitly excludes ("intraday highs do not count", "rather than
 * LMArena"), numbers and title acronyms. Pure and deterministic.
 */

import { round6 } from '../../money/money';

const STOPWORDS = new Set(
  (
    'a an the and or of to in on at by for from with as is are be been was were will would shall should can could ' +
    "if then than that this these those it its it's their there any all each either following what which who whom " +
    'how when where why into onto over under between before after during within about per via vs versus ' +
    'do does did not no yes otherwise market markets resolve resolves resolved resolution event question ' +
    'alone merely just only also both more less most least has have had being ' +
    'am pm et utc est edt noon midnight jan feb mar apr may jun jul aug sep sept oct nov dec ' +
    'january february march april june july august september october november december ' +
    'monday tuesday wednesday thursday friday saturday sunday s th st nd rd'
  ).split(/\s+/),
);

/** Month words are kept out of {@link STOPWORDS}' date role when they carry meaning ("September average"). */
const MONTHS = new Set([
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]);

/** Words that only ever restate the negation cue itself. */
const CUE_WORDS = new Set([
  'count',
  'counts',
  'sufficient',
  'enough',
  'required',
  'needed',
  'necessary',
  'qualify',
  'suffice',
  'need',
]);

/**
 * A crude English stemmer: enough to meet "approval"/"approves",
 * "closing"/"closes", "passage"/"passes", "signature"/"signed".
 */
export function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 3) return w;
  for (const suffix of [
    'ations',
    'ation',
    'ature',
    'ings',
    'ing',
    'ages',
    'age',
    'ies',
    'ed',
    'es',
    'als',
    'al',
    'ly',
    's',
    'e',
  ]) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) return w.slice(0, -suffix.length);
  }
  return w;
}

/** "U.S." → "US" and similar dotted abbreviations, so they tokenize as one word. */
function undot(text: string): string {
  return text.replace(
    /\b([A-Za-z])\.([A-Za-z])\.(?:([A-Za-z])\.)?/g,
    (_m, a: string, b: string, c?: string) => `${a}${b}${c ?? ''}`,
  );
}

/** Lower-case word tokens (letters and digits), hyphenated words split. */
export function words(text: string): string[] {
  return undot(text)
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** Whether a lower-case word carries no content (articles, question words, dates' month and day names). */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** Content stems of a text: no stopwords, no bare numbers. `surface` learns a word per stem. */
export function contentStems(text: string, keepMonths = false, surface?: Map<string, string>): Set<string> {
  const out = new Set<string>();
  for (const w of words(text)) {
    if (/^\d/.test(w)) continue;
    if (STOPWORDS.has(w) && !(keepMonths && MONTHS.has(w))) continue;
    const s = stem(w);
    out.add(s);
    if (surface && !surface.has(s)) surface.set(s, w);
  }
  return out;
}

/** Sentences and clauses (split at `.` `;` `!` `?` followed by a space). */
function clauses(text: string): string[] {
  return undot(text)
    .split(/(?<=[.;!?])\s+|;\s*/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

const SUBJECT_NEGATION = [
  // "Intraday highs do not count", "An NBER declaration alone does not count"
  /^(.*?)\b(?:do|does|did|shall|will|would)\s+not\s+(?:count|qualify|suffice)\b(.*)$/i,
  // "SEC approval alone is not sufficient", "Senate passage and signature are not required"
  /^(.*?)\b(?:is|are|was|were)\s+not\s+(?:sufficient|enough|required|needed|necessary)\b(.*)$/i,
  // "Trading need not have begun"
  /^(.*?)\bneed\s+not\b(.*)$/i,
];

const INLINE_NEGATION =
  /\b(?:not|rather\s+than|instead\s+of|excluding|other\s+than)\s+((?:on|the|a|an|in|at|by)\s+)*([^,.;:()"]+)/gi;

/** What a text counts (`affirmed`) and what it explicitly rules out (`excluded`), as stems. */
export interface ClauseTerms {
  affirmed: Set<string>;
  excluded: Set<string>;
  /** Lower-case words of the affirmed parts (qualifiers are matched on words, not stems). */
  affirmedWords: Set<string>;
  /** A readable word for each stem, for explanations. */
  surface: Map<string, string>;
  /** The text with what it rules out cut away, clause by clause (phrases stay whole). */
  affirmedText: string;
}

/**
 * Splits a text into affirmed and excluded terms. A clause like "Elections
 * merely called, not held, do not count" excludes its subject ("elections
 * merely called"); the inner "not held" is a double negation and is dropped.
 */
export function clauseTerms(text: string): ClauseTerms {
  const affirmed = new Set<string>();
  const excluded = new Set<string>();
  const affirmedWords = new Set<string>();
  const surface = new Map<string, string>();
  const kept: string[] = [];
  const exclude = (phrase: string) => {
    for (const s of contentStems(phrase, true, surface)) if (!CUE_WORDS.has(s)) excluded.add(s);
  };
  for (const clause of clauses(text)) {
    let rest = clause;
    for (const re of SUBJECT_NEGATION) {
      const m = re.exec(clause);
      if (m) {
        // The subject's own "not X" parts are counted, not excluded (double negation).
        exclude((m[1] ?? '').replace(/\bnot\s+[^,.;]+/gi, ' '));
        rest = m[2] ?? '';
        break;
      }
    }
    const affirmedPart = rest.replace(INLINE_NEGATION, (_m, _lead: string, phrase: string) => {
      exclude(phrase);
      return ' ';
    });
    for (const s of contentStems(affirmedPart, true, surface)) affirmed.add(s);
    for (const w of words(affirmedPart)) affirmedWords.add(w);
    kept.push(affirmedPart);
  }
  for (const s of affirmed) excluded.delete(s);
  return { affirmed, excluded, affirmedWords, surface, affirmedText: kept.join('. ') };
}

/** Acronyms and inner-capital names in a title ("RCP", "EIA", "LMArena"), lower-cased. */
export function titleAcronyms(title: string): string[] {
  const found = undot(title).match(/\b(?:[A-Z]{2,}[A-Za-z]*|[A-Z][a-z]+[A-Z][A-Za-z]*)\b/g) ?? [];
  return [...new Set(found.map((w) => w.toLowerCase()))];
}

/**
 * Capitalized names inside sentences ("Silver Bulletin", "BLS", "Binance"),
 * lower-cased; sentence-initial words and stopwords are left out.
 */
export function properNames(text: string): string[] {
  const out = new Set<string>();
  for (const clause of clauses(text)) {
    const tokens = clause.split(/[^A-Za-z0-9-]+/).filter((t) => t.length > 0);
    for (const t of tokens.slice(1)) {
      if (!/^[A-Z]/.test(t)) continue;
      for (const w of words(t)) if (!STOPWORDS.has(w) && !/^\d/.test(w)) out.add(w);
    }
  }
  return [...out];
}

/** Whether `acronym` is a word of `text` or the initials of consecutive words of it. */
export function mentions(text: string, acronym: string): boolean {
  const ws = words(text);
  if (ws.includes(acronym)) return true;
  if (ws.some((w) => w.length > acronym.length && w.startsWith(acronym))) return true;
  for (let i = 0; i + acronym.length <= ws.length; i += 1) {
    let initials = '';
    for (let j = i; j < ws.length && initials.length < acronym.length; j += 1) initials += ws[j][0];
    if (initials === acronym) return true;
  }
  return false;
}

const MONTH_BEFORE = /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s*$/;

/** Numbers a text mentions ("$2.50", "120,000", "4.0%"), excluding years and days of month. */
export function thresholds(text: string): number[] {
  const out: number[] = [];
  // Not after a digit, dot, dash or slash: "2025-26" and "24/7" are not strikes.
  const re = /(\$)?(?<![\d.\-/])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(%|k\b|m\b|b\b|million|billion)?/gi;
  for (const m of text.matchAll(re)) {
    const raw = Number(m[2].replace(/,/g, ''));
    const unit = (m[3] ?? '').toLowerCase();
    const money = m[1] === '$';
    if (!money && !unit && Number.isInteger(raw) && raw >= 1900 && raw <= 2100) continue;
    if (!money && !unit && Number.isInteger(raw) && raw <= 31 && MONTH_BEFORE.test(text.slice(0, m.index))) continue;
    const scale =
      unit === 'k' ? 1e3 : unit === 'm' || unit === 'million' ? 1e6 : unit === 'b' || unit === 'billion' ? 1e9 : 1;
    out.push(round6(raw * scale));
  }
  return out;
}

/** Size of the intersection over the size of the union (0 when both are empty). */
export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let common = 0;
  for (const x of a) if (b.has(x)) common += 1;
  return common / (a.size + b.size - common);
}
