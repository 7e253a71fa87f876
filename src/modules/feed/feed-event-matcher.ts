/**
 * Maps a feed item to the core event it is about, by the words their titles
 * share. Deliberately conservative: an item maps only when at least two
 * significant words match and they cover a good share of the event's title,
 * and never across categories when the item names one.
 */
const STOPWORDS = new Set(
  (
    'the and for with will what when who which this that from into over under above below than then there their ' +
    'about after before between during on in at of to by be is are was were an a or not no yes its it as do ' +
    'does did has have had how why per vs via new says say said'
  ).split(' '),
);

export function significantWords(text: string): Set<string> {
  const words = text
    .toLowerCase()
    .normalize('NFKD')
    .split(/[^a-z0-9$%.]+/);
  const out = new Set<string>();
  for (const raw of words) {
    const w = raw.replace(/^[.$]+|[.]+$/g, '');
    if (w.length >= 3 && !STOPWORDS.has(w)) out.add(w);
    else if (/^\d+$/.test(w) && w.length >= 2) out.add(w);
  }
  return out;
}

export interface MatchableEvent {
  id: string;
  slug: string;
  title: string;
  category: string;
}

export interface EventMatch {
  eventId: string;
  score: number;
}

const MIN_SHARED = 2;
const MIN_COVERAGE = 0.4;

/**
 * The events' words indexed once (word → events whose title has it), so a
 * batch of items is matched in O(items + events): an item only looks at the
 * events sharing one of its words, instead of re-tokenising every title.
 */
export class EventMatcher {
  private readonly byWord = new Map<string, number[]>();
  private readonly sizes: number[] = [];

  constructor(private readonly events: readonly MatchableEvent[]) {
    events.forEach((e, k) => {
      const words = significantWords(e.title);
      this.sizes[k] = words.size;
      for (const w of words) {
        const list = this.byWord.get(w);
        if (list) list.push(k);
        else this.byWord.set(w, [k]);
      }
    });
  }

  match(item: { title: string; summary?: string; category?: string }): EventMatch | null {
    const shared = new Map<number, number>();
    for (const w of significantWords(`${item.title} ${item.summary ?? ''}`)) {
      for (const k of this.byWord.get(w) ?? []) shared.set(k, (shared.get(k) ?? 0) + 1);
    }
    let best: EventMatch | null = null;
    for (const [k, count] of shared) {
      const e = this.events[k];
      if (item.category !== undefined && item.category !== e.category) continue;
      const coverage = count / this.sizes[k];
      if (count < MIN_SHARED || coverage < MIN_COVERAGE) continue;
      const score = coverage + count / 100; // ties go to the event sharing more words
      if (!best || score > best.score || (score === best.score && e.id < best.eventId)) best = { eventId: e.id, score };
    }
    return best;
  }
}

/** One item against a list of events (builds the index: use {@link EventMatcher} for a batch). */
export function matchEvent(
  item: { title: string; summary?: string; category?: string },
  events: readonly MatchableEvent[],
): EventMatch | null {
  return new EventMatcher(events).match(item);
}
