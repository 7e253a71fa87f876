import type { ServerResponse } from 'node:http';

/** Default bound of a client's unsent bytes (STREAM_MAX_BUFFER_BYTES). */
export const DEFAULT_MAX_BUFFER_BYTES = 1_048_576;

export interface SseOptions {
  /** Comment heartbeat interval (ms); at most 15 s by contract. */
  heartbeatMs?: number;
  /** Client reconnection delay announced with `retry:` (ms). */
  retryMs?: number;
  /** Unsent bytes (queued here and in the response) beyond which the client is dropped. */
  maxBufferBytes?: number;
  /** Called once when the client is dropped for falling behind, with its unsent bytes. */
  onDrop?: (unsentBytes: number) => void;
  /**
   * Writes made in one turn of the event loop leave in one socket write (one system call, one
   * wake-up of the client) instead of one each: for a stream of its own client, whose events
   * come in bursts (an order's `submitted`, `fill` and `completed`, then the end). Not for a
   * market's fan-out, where the first clients should read while the loop still writes to the rest.
   */
  coalesce?: boolean;
}

const CRLF = Buffer.from('\r\n');

/**
 * One SSE message made once and written to every client that gets it: its bytes, and the same
 * bytes framed as one HTTP/1.1 chunk (made the first time a client needs them). A frame goes to a
 * chunked response's socket as that one chunk: Node's `res.write` frames every write anew (a
 * length line, the data and a line end, three buffers per client) and the fan-out of one market
 * update to 2,000 clients spent most of its time there.
 */
export class SseFrame {
  private framed: Buffer | null = null;

  constructor(readonly bytes: Buffer) {}

  static of(event: string, id: string | undefined, data: unknown): SseFrame {
    return new SseFrame(Buffer.from(sseFrame(event, id, data)));
  }

  /** `<length in hex>\r\n<bytes>\r\n`. */
  get chunk(): Buffer {
    this.framed ??= Buffer.concat([Buffer.from(`${this.bytes.length.toString(16)}\r\n`), this.bytes, CRLF]);
    return this.framed;
  }
}

/**
 * Writes a stream to one response honouring backpressure: once `write()` returns false nothing
 * more is written until `drain`; chunks produced meanwhile wait in a queue. When what the client
 * has not taken (that queue and the response's own buffer) passes `maxBufferBytes`, the client is
 * dropped: its connection is destroyed and `onDrop` told. Node's streams only report the
 * pressure; the bound and the drop are this class's.
 */
export class BackpressureWriter {
  private readonly queue: { chunk: string | Buffer | SseFrame; bytes: number }[] = [];
  private queuedBytes = 0;
  private waiting = false;
  private ending = false;
  private droppedClient = false;
  /** The response has written its head (frames may then go to its socket as chunks). */
  private headWritten = false;
  /** The socket is corked until the end of this turn ({@link coalesce}). */
  private corked = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly maxBufferBytes: number,
    private readonly onDrop?: (unsentBytes: number) => void,
    private readonly coalesce = false,
  ) {}

  /**
   * Holds this turn's writes in the socket until the turn ends ({@link SseOptions.coalesce}):
   * uncorked on `process.nextTick`, which runs once the turn's microtasks (where a stream's
   * loop writes) have all run.
   */
  private corkForTurn(): void {
    const socket = this.res.socket;
    if (!this.coalesce || this.corked || !socket || socket.destroyed) return;
    socket.cork();
    this.corked = true;
    process.nextTick(() => {
      this.corked = false;
      socket.uncork();
    });
  }

  /** True while waiting for `drain`. */
  get congested(): boolean {
    return this.waiting;
  }

  get dropped(): boolean {
    return this.droppedClient;
  }

  /** Bytes not yet handed to the operating system: queued here and buffered by the response. */
  get unsentBytes(): number {
    return this.queuedBytes + this.res.writableLength;
  }

  /** Writes `chunk`, or queues it while the client catches up; false once the client is gone or dropped. */
  write(chunk: string | Buffer | SseFrame): boolean {
    if (this.droppedClient || this.res.destroyed || this.res.writableEnded) return false;
    if (this.waiting) {
      const bytes =
        chunk instanceof SseFrame
          ? chunk.bytes.length
          : typeof chunk === 'string'
            ? Buffer.byteLength(chunk)
            : chunk.length;
      this.queue.push({ chunk, bytes });
      this.queuedBytes += bytes;
      return this.withinBound();
    }
    if (this.writeNow(chunk)) return true;
    this.waitForDrain();
    return this.withinBound();
  }

  /**
   * Hands `chunk` on; false when the socket's buffer is full. A frame goes to the socket as one
   * chunk at once, uncorked: the first of a market's 2,000 clients reads an update while the loop
   * still writes it to the others (a corked write waits for the end of the tick, after the whole
   * loop). Other writes go through the response. Both land in the socket's one buffer, in order.
   */
  private writeNow(chunk: string | Buffer | SseFrame): boolean {
    this.corkForTurn();
    const socket = this.res.socket;
    if (chunk instanceof SseFrame) {
      // Straight to the socket once the head is out, when the response is chunked (HTTP/1.1).
      if (this.headWritten && this.res.chunkedEncoding && socket && !socket.destroyed) {
        return socket.write(chunk.chunk);
      }
      chunk = chunk.bytes;
    }
    this.headWritten = true;
    return this.res.write(chunk);
  }

  /** Ends the response once the queue is written. */
  end(): void {
    if (this.droppedClient || this.res.destroyed || this.res.writableEnded) return;
    if (this.waiting) this.ending = true;
    else {
      this.corkForTurn();
      this.res.end();
    }
  }

  /** The socket's `drain` (frames are written to it directly; the response's comes from it too). */
  private get drainSource(): NodeJS.EventEmitter {
    return this.res.socket ?? this.res;
  }

  private waitForDrain(): void {
    this.waiting = true;
    this.drainSource.once('drain', this.flush);
  }

  private readonly flush = (): void => {
    this.waiting = false;
    while (this.queue.length > 0 && !this.res.destroyed) {
      const next = this.queue.shift()!;
      this.queuedBytes -= next.bytes;
      if (!this.writeNow(next.chunk)) {
        this.waitForDrain();
        return;
      }
    }
    if (this.ending && !this.res.destroyed) this.res.end();
  };

  private withinBound(): boolean {
    const unsent = this.unsentBytes;
    if (unsent <= this.maxBufferBytes) return true;
    this.droppedClient = true;
    this.queue.length = 0;
    this.queuedBytes = 0;
    this.drainSource.off('drain', this.flush);
    // Destroyed, not ended: ending would wait for a client that does not read.
    this.res.destroy();
    this.onDrop?.(unsent);
    return false;
  }
}

/**
 * One SSE message as written on the wire: `event:`, `id:` (left out when undefined) and the
 * JSON `data:` on one line. Made once per message and written as it is to every client that
 * gets it ({@link SseFrame}, {@link SseStream.sendFrame}).
 */
export function sseFrame(event: string, id: string | undefined, data: unknown): string {
  const payload = JSON.stringify(data).replace(/\n/g, '\\n');
  const idLine = id === undefined ? '' : `id: ${id.replace(/[\r\n]/g, '')}\n`;
  return `event: ${event}\n${idLine}data: ${payload}\n\n`;
}

const HEARTBEAT_FRAME = Buffer.from(': heartbeat\n\n');

/**
 * The heartbeat of every open stream: one interval timer per period shared by all the streams
 * with that period (not one per connection), stopped when the last of them closes.
 */
class SharedHeartbeats {
  private readonly byPeriod = new Map<number, { timer: NodeJS.Timeout; streams: Set<SseStream> }>();

  add(stream: SseStream, everyMs: number): void {
    let beat = this.byPeriod.get(everyMs);
    if (!beat) {
      const streams = new Set<SseStream>();
      const timer = setInterval(() => {
        for (const s of streams) s.heartbeat();
      }, everyMs);
      timer.unref();
      beat = { timer, streams };
      this.byPeriod.set(everyMs, beat);
    }
    beat.streams.add(stream);
  }

  remove(stream: SseStream, everyMs: number): void {
    const beat = this.byPeriod.get(everyMs);
    if (!beat?.streams.delete(stream) || beat.streams.size > 0) return;
    clearInterval(beat.timer);
    this.byPeriod.delete(everyMs);
  }
}

const heartbeats = new SharedHeartbeats();

/**
 * One server-sent-event response: `event:`, `id:` and JSON `data:` on every
 * message, comment heartbeats (from one timer shared by every stream), and a
 * `closed` promise for teardown when the client goes away. Writes go through a
 * {@link BackpressureWriter}.
 */
export class SseStream {
  /** The heartbeat period this stream is registered under, while it is. */
  private heartbeatMs: number | null = null;
  private ended = false;
  private readonly writer: BackpressureWriter;
  readonly closed: Promise<void>;
  private resolveClosed!: () => void;

  constructor(
    private readonly res: ServerResponse,
    private readonly opts: SseOptions = {},
  ) {
    this.closed = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
    this.writer = new BackpressureWriter(
      res,
      opts.maxBufferBytes ?? DEFAULT_MAX_BUFFER_BYTES,
      opts.onDrop,
      opts.coalesce,
    );
    res.on('close', () => this.teardown());
  }

  /** Sends the status line and headers; nothing can fail with a status after this. */
  open(extraHeaders: Record<string, string> = {}): void {
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...extraHeaders,
    });
    this.writer.write(`retry: ${this.opts.retryMs ?? 3000}\n\n`);
    if (this.ended) return;
    this.heartbeatMs = Math.min(this.opts.heartbeatMs ?? 15_000, 15_000);
    heartbeats.add(this, this.heartbeatMs);
  }

  /** The heartbeat comment; skipped while the client has not drained (it only keeps the connection alive). */
  heartbeat(): void {
    if (!this.ended && !this.writer.congested) this.writer.write(HEARTBEAT_FRAME);
  }

  get isClosed(): boolean {
    return this.ended;
  }

  /** True when the client was dropped for falling behind. */
  get dropped(): boolean {
    return this.writer.dropped;
  }

  /**
   * Sends one message (queued while the client has not drained; false once it
   * is gone or dropped). `id` is left out only when there is nothing to resume
   * from yet (an error before the first message): an empty or made-up id would
   * reset or spoil the client's Last-Event-ID.
   */
  send(event: string, id: string | undefined, data: unknown): boolean {
    if (this.ended) return false;
    return this.writer.write(sseFrame(event, id, data));
  }

  /** Sends a message made once for every client that gets it ({@link SseFrame}); as {@link send}. */
  sendFrame(frame: SseFrame): boolean {
    if (this.ended) return false;
    return this.writer.write(frame);
  }

  /** A comment line; skipped while the client has not drained (it only keeps the connection alive). */
  comment(text: string): void {
    if (!this.ended && !this.writer.congested) this.writer.write(`: ${text}\n\n`);
  }

  /** Ends the response (server side). */
  end(): void {
    if (!this.ended) this.writer.end();
    this.teardown();
  }

  private teardown(): void {
    if (this.heartbeatMs !== null) heartbeats.remove(this, this.heartbeatMs);
    this.heartbeatMs = null;
    if (!this.ended) {
      this.ended = true;
      this.resolveClosed();
    }
  }
}
