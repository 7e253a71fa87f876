import type { Prng } from './prng';

/** Catalog categories; core events and venue events share them. */
export const CATEGORIES = ['politics', 'crypto', 'sports', 'economics', 'tech', 'science', 'culture'] as const;
export type Category = (typeof CATEGORIES)[number];

/** How one venue words an event or market. */
export interface Wording {
  title: string;
  description: string;
}

/** One binary market of a drafted event, worded for both venues. */
export interface MarketDraft {
  /** Unique within the event; part of the canonical market key. */
  key: string;
  /** The candidate or threshold this market is about ("Arsenal", "$120,000"). */
  label: string;
  a: Wording;
  b: Wording;
  /** venue_b ticker suffix, e.g. `T120000`, `ARS`. */
  bTicker: string;
  /** Probability the market's price process is centred on. */
  prior: number;
}

/**
 * venue_b's alternative wording when the two venues list related but not
 * identical questions (other timeframe, source or criteria). A matcher should
 * call such pairs `similar`, not `exact_match`.
 */
export interface SimilarVariant {
  b: Wording & { eventTicker: string };
  closeTime: Date;
  /** Market wording on venue_b, by market key; unlisted keys keep the exact wording. */
  markets: Record<string, Wording>;
}

/** A drafted event before venue ids and source types are assigned. */
export interface EventDraft {
  /** Canonical key (template + parameters + date); the core event id hashes it. */
  key: string;
  category: Category;
  /** Neutral canonical title and slug stem for the core event. */
  title: string;
  slug: string;
  closeTime: Date;
  /** How long before close the markets were listed (history span), in days. */
  listedDays: number;
  a: Wording;
  b: Wording & { eventTicker: string };
  similar?: SimilarVariant;
  markets: MarketDraft[];
  /** At most one market resolves Yes (candidates), as opposed to ladders of thresholds. */
  exclusive: boolean;
  /** Which venue typically lists this kind of event alone; drives single-venue picks. */
  prefer?: 'venue_a' | 'venue_b';
  /** Relative trading activity (1 = typical). */
  heat: number;
}

/** What a template sees while drafting. */
export interface TemplateContext {
  /** Calendar anchor (UTC month start); all dates are relative to it. */
  anchor: Date;
  rng: Prng;
}

/** Generates natural events of one kind from parameter lists. */
export interface EventTemplate {
  id: string;
  category: Category;
  build(ctx: TemplateContext): EventDraft[];
}

/** One formatter for every call: `toLocaleString` with options builds a new one each time (about 40 ms a world). */
const NUMBER_FORMAT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });

/** "120,000" / "3.5" — thousands separators, no trailing zeros. */
export function fmtNum(n: number): string {
  return NUMBER_FORMAT.format(n);
}

/** "$120,000" */
export function usd(n: number): string {
  const cents = n < 10 && !Number.isInteger(n);
  return `$${cents ? n.toFixed(2) : fmtNum(n)}`;
}

/** Compact money as venue_b writes it: "$120k", "$2.5B", "$0.25". */
export function usdShort(n: number): string {
  if (n >= 1e9) return `$${fmtNum(n / 1e9)}B`;
  if (n >= 1e6) return `$${fmtNum(n / 1e6)}M`;
  if (n >= 1e4) return `$${fmtNum(n / 1e3)}k`;
  return usd(n);
}

/** Ticker-safe number: 120000 → "120000", 0.25 → "0.25", 2.8 → "2.8". */
export function tickerNum(n: number): string {
  return String(Number(n.toFixed(4)));
}

/** url-friendly slug: lowercase ascii words joined by dashes. */
export function slugify(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/%/g, 'pct')
    .replace(/['’.,$?!:&]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 90)
    .replace(/-$/, '');
}

/** Uppercase ticker code from a name: "Kansas City Chiefs" → "KCC" unless given. */
export function tickerCode(name: string, len = 3): string {
  const words = name
    .replace(/[^A-Za-z0-9 ]/g, '')
    .split(/\s+/)
    .filter(Boolean);
  const code = words.length >= len ? words.map((w) => w[0]).join('') : words.join('');
  return code.slice(0, len).toUpperCase();
}

/**
 * Priors for mutually exclusive candidates: decreasing shares that sum to less
 * than 1 (the field beyond the listed names keeps the rest).
 */
export function candidatePriors(n: number, rng: Prng, field = 0.15): number[] {
  const raw = Array.from({ length: n }, (_, i) => (1 / (i + 1.3)) * (0.7 + rng.next() * 0.6));
  const total = raw.reduce((s, x) => s + x, 0);
  return raw.map((x) => Math.max(0.02, Math.min(0.9, (x / total) * (1 - field))));
}

/** Priors for an increasing ladder of thresholds (P(value > threshold) falls). */
export function ladderPriors(n: number, rng: Prng): number[] {
  const top = 0.65 + rng.next() * 0.25;
  return Array.from({ length: n }, (_, i) =>
    Math.max(0.04, top - (i * (top - 0.06)) / Math.max(1, n - 1) - rng.next() * 0.05),
  );
}
