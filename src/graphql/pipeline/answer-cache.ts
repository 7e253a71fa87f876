import { createHash } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';
import type { ExecutionResult } from 'graphql';
import { ByteLru, utf8Bytes } from '../../infra/byte-lru';
import { memoBudget, ReadMemo, type MemoBudget } from '../../infra/read-memo';

/**
 * How a transport writes an answer's data: its id (`graphql` for `/graphql`'s `{"data":…}`, a REST
 * route's id for its rendering) and the function that makes the text (a string) or the bytes (a
 * Buffer) from the data. Made once per cached answer, then shared by every response that sends it.
 */
export interface AnswerView {
  readonly id: string;
  render(data: Readonly<Record<string, unknown>> | null | undefined): string | Buffer;
}

/**
 * One serialization of an answer: the text and the bytes (each made from the other on first use,
 * then kept) and the weak ETag of the bytes.
 */
export class SerializedAnswer {
  private str?: string;
  private buf?: Buffer;
  private tag?: string;

  constructor(
    rendered: string | Buffer,
    /** Told when something more is kept (the cache weighs the answer again). */
    private readonly grew: () => void = () => {},
  ) {
    if (typeof rendered === 'string') this.str = rendered;
    else this.buf = rendered;
  }

  /** The text (Apollo writes it). */
  get text(): string {
    if (this.str === undefined) {
      this.str = this.buf!.toString('utf8');
      this.grew();
    }
    return this.str;
  }

  /** The bytes (Express and the pre-Express fast path write them). */
  get body(): Buffer {
    if (this.buf === undefined) {
      this.buf = Buffer.from(this.str!, 'utf8');
      this.grew();
    }
    return this.buf;
  }

  /** The weak ETag over the bytes. */
  get etag(): string {
    this.tag ??= `W/"${createHash('sha1').update(this.body).digest('base64url')}"`;
    return this.tag;
  }

  get weight(): number {
    return (this.str === undefined ? 0 : utf8Bytes(this.str)) + (this.buf?.length ?? 0) + (this.tag?.length ?? 0);
  }
}

/** How an answer was written over HTTP once, for the fast path to write it the same way again. */
export interface WrittenAnswer {
  /** The route, as the request log and metrics name it. */
  route: string;
  /** The view whose bytes were written. */
  view: string;
  /** The headers written, without the per-request ones (the request id's value, date, length). */
  headers: OutgoingHttpHeaders;
  /** The request id header's name as it was set (its value is made per request). */
  requestIdHeader: string;
}

/**
 * An operation's answer as the cache holds it: the result (data, no errors), each serialization
 * made of it so far, and how it was written over HTTP (per view and request variant). Callers must
 * not mutate the result: every response that carries it shares it.
 */
export class CachedAnswer {
  private readonly views = new Map<string, SerializedAnswer>();
  private readonly writes = new Map<string, { written: WrittenAnswer; bytes: number }>();

  constructor(
    readonly result: ExecutionResult & { data: Record<string, unknown> },
    private readonly grew: () => void,
  ) {}

  /** The answer written as `view` (made on first use, then kept with the answer). */
  serialized(view: AnswerView): SerializedAnswer {
    let s = this.views.get(view.id);
    if (s === undefined) {
      s = new SerializedAnswer(view.render(this.result.data), this.grew);
      this.views.set(view.id, s);
      this.grew();
    }
    return s;
  }

  /** The serialization `view` names, if it was made. */
  serializedAs(view: string): SerializedAnswer | undefined {
    return this.views.get(view);
  }

  /** How this answer was written for the request variant `variant` names (see {@link WrittenAnswer}). */
  writtenFor(variant: string): WrittenAnswer | undefined {
    return this.writes.get(variant)?.written;
  }

  recordWritten(variant: string, written: WrittenAnswer): void {
    if (this.writes.has(variant)) return;
    this.writes.set(variant, { written, bytes: utf8Bytes(variant) + utf8Bytes(JSON.stringify(written)) });
    this.grew();
  }

  /** The bytes this answer holds beyond its key: its serializations and what was written of it. */
  get weight(): number {
    let bytes = 0;
    for (const s of this.views.values()) bytes += s.weight;
    for (const w of this.writes.values()) bytes += w.bytes;
    return bytes;
  }
}

/** A kept answer with the key it is kept under (what a transport hands back to the fast path). */
export interface AnswerEntry {
  key: string;
  answer: CachedAnswer;
}

export interface AnswerCacheOptions {
  /** How long an answer lives at most when no invalidation reaches it. */
  ttlMs: number;
  /** Bytes held at most: each answer weighs its key and its serializations; the least recently used go first. */
  maxBytes: number;
  /** Answers held at most. */
  maxEntries?: number;
  now?: () => number;
}

/** Request keys (method, URL, Accept, a small body) remembered at most, and their longest. */
const MAX_REQUESTS = 1000;
const MAX_REQUEST_KEY = 2048;

/** A result that is answered but not kept (it has errors, or no data): thrown past the memo, which keeps no failure. */
class NotKept extends Error {
  constructor(readonly result: ExecutionResult) {
    super('answered, not kept');
  }
}

/**
 * The one cache of answers, in each process. An answer is keyed by its operation (the document's
 * text and operation name) and its variables ({@link AnswerCache.keyOf}), and holds the result with
 * its serializations: `/graphql`'s body, a REST route's body and its ETag, each made once. What may
 * be kept is the pipeline's decision (public reads, and the REST routes declared cached); answers
 * with errors never are. Everything goes when a topic the pipeline subscribed it to is published
 * ({@link invalidate}), and an answer after the TTL at most. Bounded by bytes (key, serializations,
 * how it was written) and by entries, least recently used first out.
 *
 * The pre-Express fast path reads the same entries, through the requests it remembered answered
 * from them ({@link rememberRequest}), or by the key a `/graphql` POST's body names.
 */
export class AnswerCache {
  private readonly budget: MemoBudget;
  private readonly memo: ReadMemo;
  /** The answer each kept result's data belongs to (Apollo hands the serializer the data alone). */
  private readonly byData = new WeakMap<object, CachedAnswer>();
  /** Request keys the fast path remembered, each with the answer key and view it was answered with. */
  private readonly requests = new ByteLru<string, { key: string; view: string }>(MAX_REQUESTS * MAX_REQUEST_KEY, {
    maxEntries: MAX_REQUESTS,
  });

  constructor(readonly options: AnswerCacheOptions) {
    this.budget = memoBudget(options.maxBytes);
    this.memo = new ReadMemo(options.ttlMs, {
      budget: this.budget,
      weigh: (answer) => (answer as CachedAnswer).weight,
      maxEntries: options.maxEntries,
      now: options.now,
    });
  }

  /** The key of an operation with its variables: the text it was sent as, its operation name, its variables' JSON. */
  static keyOf(
    source: string,
    operationName: string | null | undefined,
    variables: Readonly<Record<string, unknown>> | null | undefined,
  ): string {
    // No operation name (null) and an empty one ("", which names no operation) are different requests.
    return `${JSON.stringify(operationName ?? null)}\u0000${JSON.stringify(variables ?? {})}\u0000${source}`;
  }

  /**
   * The answer under `key`: the one kept, or the one `execute` gives (in flight, shared by every
   * request for the same key), kept when it has data and no errors, with `view` made at once.
   */
  async answer(
    key: string,
    execute: () => Promise<ExecutionResult> | ExecutionResult,
    view?: AnswerView,
  ): Promise<{ result: ExecutionResult; cached?: CachedAnswer }> {
    try {
      const cached = await this.memo.get(key, async () => {
        const result = await execute();
        if (result.errors?.length || result.data == null) throw new NotKept(result);
        const answer = new CachedAnswer(result as CachedAnswer['result'], () => this.memo.reweigh(key));
        if (view) answer.serialized(view);
        this.byData.set(result.data, answer);
        return answer;
      });
      return { result: cached.result, cached };
    } catch (err) {
      if (err instanceof NotKept) return { result: err.result };
      throw err;
    }
  }

  /** The answer kept under `key` (not expired, not invalidated), if any. */
  current(key: string): CachedAnswer | undefined {
    return this.memo.peek<CachedAnswer>(key);
  }

  /** The cached answer a result's data belongs to, if it is one. */
  answerOf(data: unknown): CachedAnswer | undefined {
    return data !== null && typeof data === 'object' ? this.byData.get(data) : undefined;
  }

  /** Remembers that the request `requestKey` was answered with `view` of the answer under `key`. */
  rememberRequest(requestKey: string, key: string, view: string): void {
    if (requestKey.length <= MAX_REQUEST_KEY) this.requests.set(requestKey, { key, view }, utf8Bytes(requestKey));
  }

  /** Whether any request is remembered (the fast path looks no further for a GET otherwise). */
  get remembersRequests(): boolean {
    return this.requests.size > 0;
  }

  /** The answer key and view a request was answered with, if it is remembered. */
  requestAnswer(requestKey: string): { key: string; view: string } | undefined {
    return this.requests.get(requestKey);
  }

  /** Forgets every answer (a topic the answers depend on was published). */
  invalidate(): void {
    this.memo.invalidate();
    this.requests.clear();
  }

  /** The bytes and count of the answers held. */
  get held(): { bytes: number; entries: number } {
    return { bytes: this.budget.bytes, entries: this.memo.size };
  }
}
