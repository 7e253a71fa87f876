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
}

/**
 * Writes a stream to one response honouring backpressure: once `write()` returns false nothing
 * more is written until `drain`; chunks produced meanwhile wait in a queue. When what the client
 * has not taken (that queue and the response's own buffer) passes `maxBufferBytes`, the client is
 * dropped: its connection is destroyed and `onDrop` told. Node's streams only report the
 * pressure; the bound and the drop are this class's.
 */
export class BackpressureWriter {
  private readonly queue: { chunk: string; bytes: number }[] = [];
  private queuedBytes = 0;
  private waiting = false;
  private ending = false;
  private droppedClient = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly maxBufferBytes: number,
    private readonly onDrop?: (unsentBytes: number) => void,
  ) {}

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
  write(chunk: string): boolean {
    if (this.droppedClient || this.res.destroyed || this.res.writableEnded) return false;
    if (this.waiting) {
      const bytes = Buffer.byteLength(chunk);
      this.queue.push({ chunk, bytes });
      this.queuedBytes += bytes;
      return this.withinBound();
    }
    if (!this.res.write(chunk)) {
      this.waitForDrain();
      return this.withinBound();
    }
    return true;
  }

  /** Ends the response once the queue is written. */
  end(): void {
    if (this.droppedClient || this.res.destroyed || this.res.writableEnded) return;
    if (this.waiting) this.ending = true;
    else this.res.end();
  }

  private waitForDrain(): void {
    this.waiting = true;
    this.res.once('drain', this.flush);
  }

  private readonly flush = (): void => {
    this.waiting = false;
    while (this.queue.length > 0 && !this.res.destroyed) {
      const next = this.queue.shift()!;
      this.queuedBytes -= next.bytes;
      if (!this.res.write(next.chunk)) {
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
    this.res.off('drain', this.flush);
    // Destroyed, not ended: ending would wait for a client that does not read.
    this.res.destroy();
    this.onDrop?.(unsent);
    return false;
  }
}

/**
 * One server-sent-event response: `event:`, `id:` and JSON `data:` on every
 * message, comment heartbeats, and a `closed` promise for teardown when the
 * client goes away. Writes go through a {@link BackpressureWriter}.
 */
export class SseStream {
  private heartbeat: NodeJS.Timeout | null = null;
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
    this.writer = new BackpressureWriter(res, opts.maxBufferBytes ?? DEFAULT_MAX_BUFFER_BYTES, opts.onDrop);
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
    const every = Math.min(this.opts.heartbeatMs ?? 15_000, 15_000);
    this.heartbeat = setInterval(() => this.comment('heartbeat'), every);
    this.heartbeat.unref();
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
    const payload = JSON.stringify(data).replace(/\n/g, '\\n');
    const idLine = id === undefined ? '' : `id: ${id.replace(/[\r\n]/g, '')}\n`;
    return this.writer.write(`event: ${event}\n${idLine}data: ${payload}\n\n`);
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
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    if (!this.ended) {
      this.ended = true;
      this.resolveClosed();
    }
  }
}
