/**
 * An EventSource consumer of `/stream/trades` that resumes. It uses the `eventsource` package
 * (the WHATWG EventSource for Node, over fetch), which reconnects by itself after a dropped
 * connection and sends `Last-Event-ID` then. Across restarts the consumer passes the id it saved
 * on its first request too, and drops any message whose id it has already handled.
 *
 * `/stream/trades` is live-only: after a gap it goes on with new trades. `/api/feed/stream`
 * replays what was missed after `Last-Event-ID`; `followStream` serves both.
 *
 *   node -r ./scripts/register.js examples/trades-stream.ts [BASE_URL] [RESUME_FILE]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { EventSource } from 'eventsource';

/** One `event: trade` of `/stream/trades`: its `id:` is the trade's `id`. */
export interface TradeMessage {
  id: string;
  venue: 'venue_a' | 'venue_b';
  marketId: string;
  eventId: string | null;
  traderId: string | null;
  side: 'buy' | 'sell';
  outcome: 'yes' | 'no';
  price: number;
  size: number;
  filledAt: string;
}

export interface FollowOptions<T> {
  /** The SSE event name to read (`trade`, `feed_item`). */
  event: string;
  /** The last id handled before (saved by an earlier run): the stream resumes after it. */
  lastEventId?: string;
  onMessage(data: T, id: string): void;
  /** A failed connection; EventSource retries by itself unless the answer was not a stream. */
  onError?(message: string): void;
}

/** A running consumer: the id to save for a resume, and how to stop it. */
export interface Follower {
  readonly lastEventId: string | undefined;
  close(): void;
}

/** How many handled ids are kept to drop a message delivered twice around a reconnection. */
const REMEMBERED_IDS = 1_000;

/** Follows the SSE stream at `url`, resuming after `lastEventId` when given. */
export function followStream<T>(url: string, opts: FollowOptions<T>): Follower {
  let lastEventId = opts.lastEventId;
  const seen = new Set<string>();
  const source = new EventSource(url, {
    // EventSource sends Last-Event-ID on its own reconnections; the first request of a resumed
    // consumer needs it too.
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: { ...init.headers, ...(lastEventId !== undefined && { 'Last-Event-ID': lastEventId }) },
      }),
  });
  source.addEventListener(opts.event, (message) => {
    const id = message.lastEventId;
    if (seen.has(id)) return;
    seen.add(id);
    if (seen.size > REMEMBERED_IDS) seen.delete(seen.values().next().value as string);
    lastEventId = id;
    opts.onMessage(JSON.parse(String(message.data)) as T, id);
  });
  source.addEventListener('error', (err) => opts.onError?.(err.message ?? 'stream error'));
  return {
    get lastEventId() {
      return lastEventId;
    },
    close: () => source.close(),
  };
}

/** Live trades, optionally of one venue or market. */
export function followTrades(
  baseUrl: string,
  opts: Omit<FollowOptions<TradeMessage>, 'event'> & { venue?: TradeMessage['venue']; marketId?: string },
): Follower {
  const query = new URLSearchParams();
  if (opts.venue !== undefined) query.set('venue', opts.venue);
  if (opts.marketId !== undefined) query.set('marketId', opts.marketId);
  const qs = query.size > 0 ? `?${query.toString()}` : '';
  return followStream<TradeMessage>(`${baseUrl}/stream/trades${qs}`, { ...opts, event: 'trade' });
}

if (require.main === module) {
  const [baseUrl = 'http://127.0.0.1:4000', resumeFile] = process.argv.slice(2);
  const saved = resumeFile !== undefined && existsSync(resumeFile) ? readFileSync(resumeFile, 'utf8').trim() : '';
  const follower = followTrades(baseUrl, {
    lastEventId: saved === '' ? undefined : saved,
    onMessage: (trade, id) => {
      process.stdout.write(`${JSON.stringify(trade)}\n`);
      if (resumeFile !== undefined) writeFileSync(resumeFile, id);
    },
    onError: (message) => process.stderr.write(`stream: ${message} (retrying)\n`),
  });
  process.once('SIGINT', () => follower.close());
}
