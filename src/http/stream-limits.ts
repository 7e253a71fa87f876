import type { ServerResponse } from 'node:http';
import { AppError } from '../errors/app-error';
import { clientKeyOf } from './client-key';

/** What a stream writer needs from the server: admission, the buffer bound and the counters. */
export interface StreamHooks {
  /** Takes a stream slot for the client until `res` closes; a 429 AppError beyond the caps. */
  admit(res: ServerResponse, address: string): void;
  /**
   * Takes a slot for the client until the returned release is called (once is enough; later calls
   * do nothing): something a stream carries that counts as a stream of its own (a graphql-sse
   * operation beyond a stream's first). A 429 AppError beyond the caps.
   */
  acquire(address: string, what?: string): () => void;
  /** Unsent bytes a client may fall behind before it is dropped. */
  maxBufferBytes: number;
  opened(kind: string): void;
  closed(kind: string): void;
  /** A client dropped for falling behind (logged and counted). */
  dropped(kind: string, unsentBytes: number): void;
}

/** Seconds a client refused for too many streams is told to wait (`Retry-After`). */
export const STREAM_RETRY_AFTER_SECONDS = 5;

/**
 * The client a request is counted as, for per-client caps and rate limits: its address, `req.ip`
 * (which honours `trust proxy`) or else the socket's peer, with an IPv6 address aggregated to its
 * /64 ({@link clientKeyOf}).
 */
export function clientAddressOf(req: { ip?: string; socket: { remoteAddress?: string } }): string {
  return clientKeyOf(req.ip ?? req.socket.remoteAddress ?? 'unknown');
}

/**
 * Concurrent server-sent-event streams of this process, per client address and in total. A slot
 * is taken when a stream request is admitted and given back when its response closes, whatever
 * ended it. Kept in process: a stream is a connection to this process, and a count kept elsewhere
 * would outlive a process that died holding slots.
 */
export class StreamSlots {
  private readonly byAddress = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly limits: { perAddress: number; total: number },
    private readonly onRefused?: (reason: 'address' | 'total') => void,
  ) {}

  admit(res: ServerResponse, address: string): void {
    const release = this.acquire(address);
    // A response whose client already left has emitted `close`: give the slot back at once.
    if (res.destroyed) release();
    else res.once('close', release);
  }

  /** A slot until the returned release is called; `what` names the counted things in the 429's message. */
  acquire(address: string, what = 'open streams'): () => void {
    const mine = this.byAddress.get(address) ?? 0;
    const reason = mine >= this.limits.perAddress ? 'address' : this.total >= this.limits.total ? 'total' : undefined;
    if (reason !== undefined) {
      this.onRefused?.(reason);
      const which = reason === 'address' ? `from this address (at most ${this.limits.perAddress})` : 'on this server';
      throw new AppError('rate_limited', `too many ${what} ${which}; retry in ${STREAM_RETRY_AFTER_SECONDS}s`, {
        retryAfter: STREAM_RETRY_AFTER_SECONDS,
      });
    }
    this.byAddress.set(address, mine + 1);
    this.total += 1;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = (this.byAddress.get(address) ?? 1) - 1;
      if (left > 0) this.byAddress.set(address, left);
      else this.byAddress.delete(address);
    };
    return release;
  }

  /** Open streams of one address, or of the process. */
  count(address?: string): number {
    return address === undefined ? this.total : (this.byAddress.get(address) ?? 0);
  }
}
