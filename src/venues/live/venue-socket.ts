import WebSocket from 'ws';
import type { StreamState } from '../venue-stream';

/** The first wait before a reconnect (ms); it doubles per failed attempt up to the configured bound. */
const FIRST_BACKOFF_MS = 250;
/** Heartbeats that may pass with nothing at all heard before the connection is taken for dead. */
const SILENT_HEARTBEATS = 3;
/** Largest frame accepted: a venue's first burst (every followed book at once) stays far below it. */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

export interface VenueSocketOptions {
  url: string;
  /** Headers of each connection attempt (venue_b signs its handshake with a fresh timestamp). */
  headers?: () => Record<string, string>;
  /** How often a heartbeat goes out (ms); the connection is dropped when nothing at all arrived for 3 of them. */
  pingMs: number;
  /** The heartbeat: this text frame (venue_a's `PING`), or a websocket ping frame when unset. */
  pingText?: string;
  /** Longest wait before a reconnect (ms): waits grow from 250 ms, doubling, with full jitter. */
  maxBackoffMs: number;
  /** Random source of the jitter (tests pin it). */
  random?: () => number;
  /** The connection is open: subscribe here (`send` writes a text frame). */
  onOpen(send: (text: string) => void): void;
  /** A text frame arrived (the heartbeat's answer included). */
  onText(text: string): void;
  onState(state: StreamState, reason?: string): void;
  /** `onText` threw: the frame is dropped, the connection stays. */
  onHandlerError?(err: unknown): void;
}

/**
 * One websocket connection to a venue that stays up: heartbeats (a text `PING` or ping frames;
 * a connection silent for three heartbeats is closed), and after any close a reconnect with
 * exponential backoff and full jitter, reset once a connection has stayed up for a few
 * heartbeats; `onOpen` runs on every (re)connection so the caller subscribes again. The `ws`
 * package does the protocol (framing, masking, pong replies, permessage-deflate).
 */
export class VenueSocket {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private stopped = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private lastHeard = 0;
  private openedAt = 0;
  private closing: Promise<void> | undefined;
  /** Why this side dropped the connection (a silent peer, a gap), when it did. */
  private dropReason: string | undefined;

  constructor(private readonly o: VenueSocketOptions) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  /** Whether a connection is open now. */
  get open(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  /** Writes a text frame when a connection is open; false otherwise (the next `onOpen` subscribes anyway). */
  send(text: string): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(text);
    return true;
  }

  /** Drops the current connection now (the reconnect follows as after any close). */
  drop(reason: string): void {
    this.dropReason = reason;
    this.ws?.terminate();
  }

  /** Closes for good: no reconnect follows. */
  stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.heartbeat);
    const ws = this.ws;
    if (!ws) return Promise.resolve();
    this.closing ??= new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      else ws.close(1000, 'closing');
      // A peer that never answers the close handshake is cut after one heartbeat.
      setTimeout(() => ws.terminate(), this.o.pingMs).unref();
    });
    return this.closing;
  }

  private connect(): void {
    if (this.stopped) return;
    this.o.onState('connecting');
    this.dropReason = undefined;
    let failure: string | undefined;
    const ws = new WebSocket(this.o.url, {
      headers: this.o.headers?.(),
      handshakeTimeout: this.o.pingMs * SILENT_HEARTBEATS,
      maxPayload: MAX_FRAME_BYTES,
    });
    this.ws = ws;
    ws.on('open', () => {
      this.openedAt = Date.now();
      this.lastHeard = this.openedAt;
      this.startHeartbeat(ws);
      this.o.onState('up');
      this.o.onOpen((text) => this.send(text));
    });
    ws.on('message', (data: WebSocket.RawData) => {
      this.lastHeard = Date.now();
      const text = Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.isBuffer(data)
          ? data.toString('utf8')
          : Buffer.from(data).toString('utf8');
      try {
        this.o.onText(text);
      } catch (err) {
        this.o.onHandlerError?.(err);
      }
    });
    ws.on('pong', () => {
      this.lastHeard = Date.now();
    });
    ws.on('ping', () => {
      this.lastHeard = Date.now();
    });
    ws.on('unexpected-response', (_req, res) => {
      failure = `handshake answered ${res.statusCode ?? 'without a status'}`;
      ws.terminate();
    });
    ws.on('error', (err: Error) => {
      failure ??= err.message;
    });
    ws.on('close', (code: number, reason: Buffer) => {
      clearInterval(this.heartbeat);
      if (this.ws === ws) this.ws = null;
      if (this.stopped) return;
      const why = this.dropReason ?? failure ?? `closed (${code}${reason.length ? ` ${reason.toString()}` : ''})`;
      this.o.onState('down', why);
      this.scheduleReconnect();
    });
  }

  private startHeartbeat(ws: WebSocket): void {
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => {
      if (Date.now() - this.lastHeard > this.o.pingMs * SILENT_HEARTBEATS) {
        this.dropReason = `silent for ${SILENT_HEARTBEATS} heartbeats`;
        ws.terminate();
        return;
      }
      if (ws.readyState !== WebSocket.OPEN) return;
      if (this.o.pingText !== undefined) ws.send(this.o.pingText);
      else ws.ping();
    }, this.o.pingMs);
    this.heartbeat.unref();
  }

  private scheduleReconnect(): void {
    // A connection that stayed up for a few heartbeats was healthy: the next failure starts the backoff over.
    if (this.openedAt > 0 && Date.now() - this.openedAt >= this.o.pingMs * SILENT_HEARTBEATS) this.attempt = 0;
    this.openedAt = 0;
    const ceiling = Math.min(this.o.maxBackoffMs, FIRST_BACKOFF_MS * 2 ** Math.min(this.attempt, 20));
    this.attempt += 1;
    const delay = Math.floor((this.o.random ?? Math.random)() * ceiling);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
    this.reconnectTimer.unref();
  }
}
