import { PHRASES, STOPWORDS, SYNONYMS } from './lexicon.data';

/**
 * Text → weighted sparse features for the local embedder: canonical word
 * unigrams and bigrams plus character trigrams of each word (which catch
 * spelling variants the lexicon does not list). Pure and deterministic.
 */

/** A feature key (prefixed by kind so a word and a trigram never collide) and its weight. */
export type FeatureBag = Map<string, number>;

const MULTIPLIERS: Readonly<Record<string, number>> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mn: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
  t: 1e12,
  trillion: 1e12,
};

/** "$120k" / "120,000" / "4.0 million" → "120000" / "4000000"; keeps other numbers as written, minus trailing zeros. */
function canonicalNumber(digits: string, unit: string | undefined): string {
  const value = Number(digits.replace(/,/g, '')) * (unit ? (MULTIPLIERS[unit] ?? 1) : 1);
  if (!Number.isFinite(value)) return digits;
  return String(Number(value.toPrecision(12)));
}

/** Lower-case, fold accents, rewrite phrases and numbers; returns space-separated raw words. */
export function normalizeText(text: string): string {
  let s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’'`]/g, '')
    .replace(/²/g, '2');
  for (const [pattern, replacement] of PHRASES) s = s.replace(pattern, replacement);
  // Numbers with an optional currency sign and magnitude word.
  s = s.replace(
    /(?<![a-z0-9.])\$?(\d[\d,]*(?:\.\d+)?)\s*(thousand|million|billion|trillion|bn|mn|k|m|b|t)?\b(\+)?/g,
    (_m, digits: string, unit: string | undefined) => ` ${canonicalNumber(digits, unit)} `,
  );
  // Ordinals: 31st → 31.
  s = s.replace(/\b(\d+)(?:st|nd|rd|th)\b/g, '$1');
  return s.replace(/[^a-z0-9.]+/g, ' ').replace(/(?<!\d)\.|\.(?!\d)/g, ' ');
}

/** Crude English stemming: plural and verb endings, enough to fold "releases"/"released"/"release". */
export function stem(word: string): string {
  if (/^\d/.test(word) || word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ss|us|is)$/.test(word)) return word;
  if (/(?:sh|ch|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 4)
    return word.slice(0, -1).endsWith('e') ? word.slice(0, -1) : word.slice(0, -2);
  return word;
}

/** Canonical content words of a text, in order. */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const raw of normalizeText(text).split(' ')) {
    if (!raw) continue;
    const direct = SYNONYMS[raw];
    const word = direct ?? (STOPWORDS.has(raw) ? '' : (SYNONYMS[stem(raw)] ?? stem(raw)));
    if (word && !STOPWORDS.has(word)) out.push(word);
  }
  return out;
}

/** Weight of each feature kind, relative to a word. */
const BIGRAM_WEIGHT = 0.6;
const TRIGRAM_WEIGHT = 0.35;

/** Adds the features of `text` to `bag`, scaled by `weight` (the field's importance). */
export function addFeatures(bag: FeatureBag, text: string, weight = 1): void {
  const words = contentWords(text);
  const add = (key: string, w: number) => bag.set(key, (bag.get(key) ?? 0) + w * weight);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    add(`w:${w}`, 1);
    if (i + 1 < words.length) add(`b:${w} ${words[i + 1]}`, BIGRAM_WEIGHT);
    if (w.length >= 4 && !/^\d/.test(w)) {
      const padded = `^${w}$`;
      const grams = padded.length - 2;
      for (let j = 0; j < grams; j++) add(`c:${padded.slice(j, j + 3)}`, TRIGRAM_WEIGHT / grams);
    }
  }
}
