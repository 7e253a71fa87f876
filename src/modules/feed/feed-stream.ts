import { fromMessage, matchesFilters, type FeedFilters, type FeedItemMessage, type FeedItemView } from './feed.models';

/** Reads committed feed items: those with `after < id <= upTo` matching `filters`, oldest first, at most `limit`. */
export type FeedRangeReader = (
  after: bigint,
  upTo: bigint,
  filters: FeedFilters,
  limit: number,
) => Promise<FeedItemView[]>;

/** Rows read from the database per page (replay and gap repair). */
export const FEED_STREAM_PAGE = 500;

const DONE: IteratorResult<FeedItemView> = { done: true, value: undefined };

/**
 * The feed as one ordered, gap-free stream: a backlog read from the database in
 * pages, then live messages. Ingest commits in id order, so whatever the
 * database shows is every item up to its highest id; the stream keeps `head`,
 * the highest id it has accounted for, and a live message whose `prevId` is
 * above `head` (a message lost, dropped by a full buffer, or overtaken by
 * another process's) makes it read the missing range from the database first.
 * Each id is delivered at most once, in increasing order.
 *
 * Hand-written rather than an async generator so that `return()` (the client
 * left) unsubscribes at once even while a `next()` waits for a message.
 */
export class FeedStream implements AsyncIterableIterator<FeedItemView> {
  private readonly queue: FeedItemView[] = [];
  /** A range still to read from the database, `(after, upTo]`. */
  private pending: { after: bigint; upTo: bigint } | null;
  private head: bigint;
  private closed = false;

  /**
   * @param live the feed topic, subscribed (and ready) before `dbHead` was read
   * @param dbHead the highest committed id when the stream started
   * @param after resume after this id (Last-Event-ID); undefined: only new items
   */
  constructor(
    private readonly read: FeedRangeReader,
    private readonly live: AsyncIterator<FeedItemMessage>,
    private readonly filters: FeedFilters,
    dbHead: bigint,
    after: bigint | undefined,
  ) {
    this.pending = after !== undefined && after < dbHead ? { after, upTo: dbHead } : null;
    this.head = after !== undefined && after > dbHead ? after : dbHead;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<FeedItemView>> {
    for (;;) {
      if (this.closed) return DONE;
      const queued = this.queue.shift();
      if (queued) return { done: false, value: queued };
      if (this.pending) {
        await this.readPage(this.pending);
        continue;
      }
      const r = await this.live.next();
      if (r.done) {
        this.closed = true;
        return DONE;
      }
      this.accept(r.value);
    }
  }

  async return(): Promise<IteratorResult<FeedItemView>> {
    this.closed = true;
    this.queue.length = 0;
    await this.live.return?.();
    return DONE;
  }

  async throw(err?: unknown): Promise<IteratorResult<FeedItemView>> {
    await this.return();
    throw err;
  }

  private async readPage(range: { after: bigint; upTo: bigint }): Promise<void> {
    const rows = await this.read(range.after, range.upTo, this.filters, FEED_STREAM_PAGE);
    this.queue.push(...rows);
    const last = rows[rows.length - 1];
    this.pending = rows.length < FEED_STREAM_PAGE || !last ? null : { after: BigInt(last.id), upTo: range.upTo };
  }

  private accept(m: FeedItemMessage): void {
    const id = BigInt(m.id);
    if (id <= this.head) return; // replayed or repaired already
    // A message without `prevId` (an older publisher) tells nothing: read from the database.
    const prev = typeof m.prevId === 'string' ? BigInt(m.prevId) : id;
    if (prev > this.head) this.pending = { after: this.head, upTo: id };
    else if (matchesFilters(m, this.filters)) this.queue.push(fromMessage(m));
    this.head = id;
  }
}
