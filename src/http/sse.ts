import type { ServerResponse } from 'node:http';

export interface SseOptions {
  /** Comment heartbeat interval (ms); at most 15 s by contract. */
  heartbeatMs?: number;
  /** Client reconnection delay announced with `retry:` (ms). */
  retryMs?: number;
}

/**
 * One server-sent-event response: `event:`, `id:` and JSON `data:` on every
 * message, comment heartbeats, and a `closed` promise for teardown when the
 * client goes away.
 */
export class SseStream {
  private heartbeat: NodeJS.Timeout | null = null;
  private ended = false;
  readonly closed: Promise<void>;
  private resolveClosed!: () => void;

  constructor(
    private readonly res: ServerResponse,
    private readonly opts: SseOptions = {},
  ) {
    this.closed = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
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
    this.res.write(`retry: ${this.opts.retryMs ?? 3000}\n\n`);
    const every = Math.min(this.opts.heartbeatMs ?? 15_000, 15_000);
    this.heartbeat = setInterval(() => this.comment('heartbeat'), every);
    this.heartbeat.unref();
  }

  get isClosed(): boolean {
    return this.ended;
  }

  /**
   * Sends one message. `id` is left out only when there is nothing to resume
   * from yet (an error before the first message): an empty or made-up id would
   * reset or spoil the client's Last-Event-ID.
   */
  send(event: string, id: string | undefined, data: unknown): boolean {
    if (this.ended) return false;
    const payload = JSON.stringify(data).replace(/\n/g, '\\n');
    const idLine = id === undefined ? '' : `id: ${id.replace(/[\r\n]/g, '')}\n`;
    return this.res.write(`event: ${event}\n${idLine}data: ${payload}\n\n`);
  }

  comment(text: string): void {
    if (!this.ended) this.res.write(`: ${text}\n\n`);
  }

  /** Ends the response (server side). */
  end(): void {
    if (!this.ended) this.res.end();
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
