import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseReader {
  status: number;
  headers: Headers;
  /** Resolves with the next `count` messages (after those already taken). */
  take(count: number, timeoutMs?: number): Promise<EventSourceMessage[]>;
  comments: string[];
  close(): void;
}

/**
 * Closes a fetched stream: aborts it and cancels its body. Holding the Response in the closer
 * matters: undici cancels the body of a collected Response, which would close a stream meant to
 * stay open at whatever garbage collection falls next.
 */
export function closerOf(ctrl: AbortController, res: Response): () => void {
  return () => {
    ctrl.abort();
    void res.body?.cancel().catch(() => undefined);
  };
}

/** Opens an SSE response with fetch and parses it with a spec-conformant parser. */
export async function openSse(url: string, init: RequestInit = {}): Promise<SseReader> {
  const ctrl = new AbortController();
  const res = await fetch(url, {
    ...init,
    headers: { accept: 'text/event-stream', ...(init.headers as object) },
    signal: ctrl.signal,
  });
  const queue: EventSourceMessage[] = [];
  const comments: string[] = [];
  let wake = null as (() => void) | null;
  let ended = false;
  const parser = createParser({
    onEvent: (m) => {
      queue.push(m);
      wake?.();
    },
    onComment: (c) => comments.push(c),
  });
  void (async () => {
    try {
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
        parser.feed(decoder.decode(chunk, { stream: true }));
    } catch {
      // aborted by close()
    } finally {
      ended = true;
      wake?.();
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    comments,
    async take(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (queue.length < count) {
        if (ended) throw new Error(`stream ended after ${queue.length} of ${count} messages`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`timed out waiting for ${count} messages (have ${queue.length})`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, Math.min(left, 200));
        });
        wake = null;
      }
      return queue.splice(0, count);
    },
    close: closerOf(ctrl, res),
  };
}
