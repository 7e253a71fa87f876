import { isoDay, tickerDate } from './sim-dates';
import type { Category, EventDraft, MarketDraft, SimilarVariant, Wording } from './sim-catalog.types';
import { slugify } from './sim-catalog.types';

/** A yes/no question that is its own event on both venues (one market each). */
export interface BinarySpec {
  id: string;
  /** venue_b series ticker, e.g. `KXGOVSHUT`. */
  ticker: string;
  prior: number;
  heat?: number;
  prefer?: 'venue_a' | 'venue_b';
  /** Neutral title of the core event. */
  title(d: Date): string;
  a(d: Date): Wording;
  b(d: Date): Wording;
  /** venue_b's related-but-different question, when one exists. */
  similar?(d: Date): { b: Wording; closeTime?: Date; ticker?: string };
}

/** Drafts a single-market event from a binary spec closing at `date`. */
export function binaryEvent(
  template: string,
  category: Category,
  spec: BinarySpec,
  date: Date,
  listedDays: number,
): EventDraft {
  const a = spec.a(date);
  const b = spec.b(date);
  const eventTicker = `${spec.ticker}-${tickerDate(date)}`;
  const market: MarketDraft = { key: 'yes', label: 'Yes', a, b, bTicker: '', prior: spec.prior };
  const draft: EventDraft = {
    key: `${template}:${spec.id}:${isoDay(date)}`,
    category,
    title: spec.title(date),
    slug: slugify(spec.title(date)),
    closeTime: date,
    listedDays,
    a,
    b: { ...b, eventTicker },
    markets: [market],
    exclusive: false,
    heat: spec.heat ?? 1,
  };
  if (spec.prefer) draft.prefer = spec.prefer;
  if (spec.similar) {
    const alt = spec.similar(date);
    const variant: SimilarVariant = {
      b: { ...alt.b, eventTicker: `${alt.ticker ?? `${spec.ticker}X`}-${tickerDate(alt.closeTime ?? date)}` },
      closeTime: alt.closeTime ?? date,
      markets: { yes: alt.b },
    };
    draft.similar = variant;
  }
  return draft;
}

/** One market of a multi-market event, before its prior is known. */
export interface Leg {
  key: string;
  label: string;
  a: Wording;
  b: Wording;
  bTicker: string;
}

/** Attaches priors to legs in order. */
export function withPriors(legs: Leg[], priors: number[]): MarketDraft[] {
  return legs.map((leg, i) => ({ ...leg, prior: priors[i] ?? 0.1 }));
}

/** Same text for event and market: venue_a's single-question events read this way. */
export function same(title: string, description: string): Wording {
  return { title, description };
}
