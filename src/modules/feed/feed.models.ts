import type { FeedItem } from '../../db/generated/client';

/** A feed item as handed out (the id is a decimal string of the ascending sequence). */
export interface FeedItemView {
  id: string;
  source: string;
  externalId: string;
  kind: string;
  title: string;
  summary: string;
  url: string | null;
  author: string | null;
  category: string | null;
  coreEventId: string | null;
  mappingMethod: string | null;
  tags: string[];
  publishedAt: Date;
  ingestedAt: Date;
}

export function toFeedItemView(row: FeedItem): FeedItemView {
  return { ...row, id: row.id.toString() };
}

/** The largest feed id: ids are PostgreSQL `bigint` (int64). */
const MAX_FEED_ID = 2n ** 63n - 1n;

/** A feed id from text (decimal digits within int64), or null when it cannot be one. */
export function parseFeedId(text: string): bigint | null {
  if (!/^\d{1,19}$/.test(text)) return null;
  const id = BigInt(text);
  return id <= MAX_FEED_ID ? id : null;
}

/**
 * The wire form published on the feed topic (dates as ISO strings). `prevId`
 * is the id of the item committed just before this one ("0" for the first):
 * ingest commits in id order, so a subscriber whose last seen id is lower than
 * `prevId` knows it missed items (a message lost or overtaken) and reads them
 * from the database.
 */
export type FeedItemMessage = Omit<FeedItemView, 'publishedAt' | 'ingestedAt'> & {
  publishedAt: string;
  ingestedAt: string;
  prevId: string;
};

export function toMessage(v: FeedItemView, prevId: string): FeedItemMessage {
  return { ...v, publishedAt: v.publishedAt.toISOString(), ingestedAt: v.ingestedAt.toISOString(), prevId };
}

export function fromMessage({ prevId: _prev, ...m }: FeedItemMessage): FeedItemView {
  return { ...m, publishedAt: new Date(m.publishedAt), ingestedAt: new Date(m.ingestedAt) };
}

export interface FeedFilters {
  category?: string;
  source?: string;
  coreEventId?: string;
}

export function matchesFilters(
  item: Pick<FeedItemView, 'category' | 'source' | 'coreEventId'>,
  f: FeedFilters,
): boolean {
  return (
    (f.category === undefined || item.category === f.category) &&
    (f.source === undefined || item.source === f.source) &&
    (f.coreEventId === undefined || item.coreEventId === f.coreEventId)
  );
}

/** An item as the ingest worker sends it. */
export interface FeedItemInput {
  source: string;
  externalId: string;
  kind?: string;
  title: string;
  summary?: string;
  url?: string;
  author?: string;
  category?: string;
  /** The worker may name the event (id or slug); otherwise the text is matched. */
  coreEventId?: string;
  tags?: string[];
  publishedAt: Date;
}
