import { Agent, request, type Dispatcher } from 'undici';
import { z } from 'zod';
import { AppError } from '../../errors/app-error';
import { maybeSent, noticeWrite } from '../../upstreams/maybe-sent';
import type { OutcomeSide, Side } from '../../venues/venue.models';

/** An order as sent to the venue_a execution service. */
export interface ExecutionServiceOrderRequest {
  clientOrderId: string;
  userId: string;
  marketId: string;
  side: Side;
  outcome: OutcomeSide;
  size: number;
  orderType: 'market' | 'limit';
  limitPrice?: number;
  funding?: { chain?: string; currency?: string; amountAtomic?: string };
  referrerId?: string;
  metadata?: Record<string, string>;
}

const fill = z.object({
  price: z.number().gt(0).lte(1),
  size: z.number().gt(0),
  filledAt: z.iso.datetime({ offset: true }).optional(),
});
const order = z.object({
  id: z.string().min(1).max(200),
  status: z.enum(['pending', 'open', 'filled', 'partially_filled', 'cancelled', 'rejected', 'failed']),
  fills: z.array(fill).max(10_000).default([]),
  reason: z.string().max(500).optional(),
});
export type ExecutionServiceOrder = z.infer<typeof order>;

/**
 * A submit whose effect at the service is unknown: it may have taken the order (the call timed out
 * or the connection broke after the request was written, the service answered 5xx, or a 2xx answer
 * could not be read). Submitting again with the same `Idempotency-Key`, or asking by the order's
 * id, finds out. A 502 like any upstream failure.
 */
export class ExecutionServiceUncertainError extends AppError {
  constructor(message: string) {
    super('upstream_error', message);
    this.name = 'ExecutionServiceUncertainError';
  }
}

/** Whether a failed call may still have reached the service (see {@link ExecutionServiceUncertainError}). */
export function outcomeUnknown(err: unknown): err is ExecutionServiceUncertainError {
  return err instanceof ExecutionServiceUncertainError;
}

/** Statuses after which the service will not fill the order any more. */
export function isFinal(status: ExecutionServiceOrder['status']): boolean {
  return status !== 'pending' && status !== 'open';
}

/**
 * The venue_a execution service over HTTP. `POST /orders` places an order
 * (`Idempotency-Key: order:<orderId>`, so a retried submit is one order) and
 * `GET /orders/{id}` follows it; both answer
 * `{ id, status, fills: [{ price, size, filledAt? }], reason? }`, status one of
 * pending, open (still working), filled, partially_filled (rest cancelled),
 * cancelled, rejected, failed. The caller's wallet-auth token goes along as
 * the bearer: the service trades for that wallet (the reconciler may ask
 * without one when the caller's token is gone). Any failure (network,
 * timeout, non-2xx, an answer of the wrong shape) is a 502 that never echoes
 * the upstream's body. A submit is told apart as the venue clients tell theirs
 * (see `upstreams/maybe-sent.ts`): never sent (connection refused, DNS, a
 * timeout before it was written) or refused by the service (a non-2xx below
 * 500) is a plain 502, the service does not have the order; maybe sent (a
 * timeout or a broken connection after it was written, a 5xx, which a gateway
 * or a crash may give after the service took it, or an unreadable 2xx) is an
 * {@link ExecutionServiceUncertainError}.
 */
export class ExecutionServiceClient {
  private readonly base: string;
  /** Keep-alive pool of this service (idle connections do not hold the process open). */
  private readonly agent = new Agent();

  constructor(
    url: string,
    private readonly timeoutMs: number,
  ) {
    this.base = url.replace(/\/+$/, '');
  }

  submit(req: ExecutionServiceOrderRequest, walletToken: string | undefined): Promise<ExecutionServiceOrder> {
    return this.call('POST', '/orders', walletToken, req, `order:${req.clientOrderId}`);
  }

  get(id: string, walletToken: string | undefined): Promise<ExecutionServiceOrder> {
    return this.call('GET', `/orders/${encodeURIComponent(id)}`, walletToken);
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    token: string | undefined,
    body?: unknown,
    key?: string,
  ): Promise<ExecutionServiceOrder> {
    // A submit acts at the service; a read has no effect there, so its failures are plain 502s.
    const acts = method === 'POST';
    const failed = (message: string, maybeTaken: boolean): AppError =>
      acts && maybeTaken ? new ExecutionServiceUncertainError(message) : AppError.upstream(message);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    if (key) headers['idempotency-key'] = key;
    const signal = AbortSignal.timeout(this.timeoutMs);
    let written = false;
    let res: Dispatcher.ResponseData;
    try {
      res = await request(`${this.base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        dispatcher: this.agent.compose(noticeWrite(() => (written = true))),
        signal,
      });
    } catch (err) {
      const sent = maybeSent(err, written);
      throw failed(
        `execution service ${signal.aborted ? 'timed out' : sent ? 'connection failed' : 'is unreachable'}`,
        sent,
      );
    }
    const status = res.statusCode;
    if (status < 200 || status >= 300) {
      await res.body.dump().catch(() => undefined);
      throw failed(`execution service answered ${status}`, status >= 500);
    }
    // A 2xx: the service took the call, whatever the body turns out to be.
    let json: unknown;
    try {
      json = await res.body.json();
    } catch {
      throw failed(signal.aborted ? 'execution service timed out' : 'execution service sent a malformed answer', true);
    }
    const parsed = order.safeParse(json);
    if (!parsed.success) throw failed('execution service sent an unexpected answer', true);
    return parsed.data;
  }
}
