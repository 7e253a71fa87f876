import { AppError } from '../errors/app-error';
import { STREAM_RETRY_AFTER_SECONDS } from '../http/stream-limits';

/** One operation's place on a graphql-sse stream: taken when its request arrives, given back once. */
export interface SseOperationClaim {
  readonly token: string;
  /** Whether it was given back: the operation ended or was refused, or its stream ended. */
  readonly released: boolean;
}

interface Claim {
  token: string;
  released: boolean;
}

interface StreamOperations {
  claims: Set<Claim>;
  /** The stream slots its operations beyond the first hold (one each). */
  slots: (() => void)[];
}

/**
 * Live operations of graphql-sse's single-connection mode, per stream (its reservation token).
 * A stream carries at most `maxPerStream` (`SSE_MAX_OPERATIONS_PER_STREAM`) operations, counted
 * from the request that registers one (so concurrent requests cannot pass the cap together) until
 * it completes, is stopped, is refused, or its stream ends; and every operation beyond a stream's
 * first holds a stream slot of its client address (`STREAMS_PER_ADDRESS`, `STREAMS_TOTAL`), so an
 * address's streams and operations together stay within its stream caps. A stream's own request
 * holds a slot already, and a reservation not yet opened counts in the reservation caps.
 */
export class SseOperations {
  private readonly byToken = new Map<string, StreamOperations>();

  constructor(
    readonly maxPerStream: number,
    /** Takes a stream slot of an address until the returned release is called (a 429 AppError beyond the caps). */
    private readonly acquire: (address: string) => () => void,
    /** An operation refused for the per-stream cap. */
    private readonly onRefused?: () => void,
  ) {}

  /**
   * A place for a new operation on `token`'s stream, requested from `address`: a 429 AppError
   * when the stream carries `maxPerStream` operations, or the address's stream slots are taken.
   */
  claim(token: string, address: string): SseOperationClaim {
    const ops = this.byToken.get(token) ?? { claims: new Set<Claim>(), slots: [] };
    if (ops.claims.size >= this.maxPerStream) {
      this.onRefused?.();
      throw new AppError(
        'rate_limited',
        `too many operations on this stream (at most ${this.maxPerStream}, SSE_MAX_OPERATIONS_PER_STREAM): ` +
          `stop one (DELETE with its operationId) or open another stream; retry in ${STREAM_RETRY_AFTER_SECONDS}s`,
        { retryAfter: STREAM_RETRY_AFTER_SECONDS },
      );
    }
    if (ops.claims.size >= 1) ops.slots.push(this.acquire(address));
    const claim: Claim = { token, released: false };
    ops.claims.add(claim);
    this.byToken.set(token, ops);
    return claim;
  }

  /** Gives a claim back (again: nothing), with the slot its stream no longer needs. */
  release(claim: SseOperationClaim): void {
    const c = claim as Claim;
    if (c.released) return;
    c.released = true;
    const ops = this.byToken.get(c.token);
    if (!ops?.claims.delete(c)) return;
    while (ops.slots.length > Math.max(0, ops.claims.size - 1)) ops.slots.pop()!();
    if (ops.claims.size === 0) this.byToken.delete(c.token);
  }

  /** The stream of `token` ended (closed, expired unopened, or the server stops): every claim goes back. */
  endStream(token: string): void {
    const ops = this.byToken.get(token);
    if (!ops) return;
    this.byToken.delete(token);
    for (const c of ops.claims) c.released = true;
    for (const release of ops.slots) release();
  }

  /** Live (and arriving) operations of one stream, or of all. */
  count(token?: string): number {
    if (token !== undefined) return this.byToken.get(token)?.claims.size ?? 0;
    let n = 0;
    for (const ops of this.byToken.values()) n += ops.claims.size;
    return n;
  }

  /** Ends every stream's claims (the server stops). */
  close(): void {
    for (const token of [...this.byToken.keys()]) this.endStream(token);
  }
}
