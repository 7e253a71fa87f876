/**
 * Maps a feed item to the core event it is about, by the words their titles
 * share. Deliberately conservative: an item maps only when at least two
 * significant words match and they cover a good share of the event's title,
 * and never across categories when the item names one.
 */
const STOPWORDS = new Set(
  'the and for with will what when who which this that from into over under above below than then there their about after before between during on in at of to by be is are was were an a or not no yes its it as do does did has have had how why per vs via new says say said'.split(
    ' ',
  ),
);

export function significantWords(text: string): Set<string> {
  const words = text.toLowerCase().normalize('NFKD').split(/[^a-z0-9$%.]+/);
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

export function matchEvent(item: { title: string; summary?: string; category?: string }, events: readonly MatchableEvent[]): EventMatch | null {
  const words = significantWords(`${item.title} ${item.summary ?? ''}`);
  let best: EventMatch | null = null;
  for (const e of events) {
    if (item.category !== undefined && item.category !== e.category) continue;
    const eventWords = significantWords(e.title);
    if (eventWords.size === 0) continue;
    let shared = 0;
    for (const w of eventWords) if (words.has(w)) shared += 1;
    const coverage = shared / eventWords.size;
    if (shared < MIN_SHARED || coverage < MIN_COVERAGE) continue;
    const score = coverage + shared / 100; // ties go to the event sharing more words
    if (!best || score > best.score || (score === best.score && e.id < best.eventId)) best = { eventId: e.id, score };
  }
  return best;
}
