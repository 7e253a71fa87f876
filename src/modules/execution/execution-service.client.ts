import { z } from 'zod';
import { AppError } from '../../errors/app-error';
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
 * A call whose effect at the service is unknown: it may have taken the order
 * (the call timed out or the connection broke after it was sent, or a 2xx
 * answer could not be read). Asking again with the same `Idempotency-Key`
 * (a submit) or the order id (a read) finds out. A 502 like any upstream failure.
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

/** Connection errors raised before anything was sent: the service never saw the call. */
const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

// Duck-typed, not `instanceof`: fetch's errors (a DOMException on timeout) may come from another realm.
function isTimeout(err: unknown): boolean {
  return (err as { name?: unknown } | null)?.name === 'TimeoutError';
}

function causeCode(err: unknown): string | undefined {
  const code = (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' ? code : undefined;
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
 * the upstream's body; one whose effect is unknown (timeout, a connection
 * lost after sending, an unreadable 2xx) is an {@link ExecutionServiceUncertainError}.
 */
export class ExecutionServiceClient {
  private readonly base: string;

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
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    if (key) headers['idempotency-key'] = key;
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      if (isTimeout(err)) throw new ExecutionServiceUncertainError('execution service timed out');
      const code = causeCode(err);
      if (code !== undefined && NEVER_SENT.has(code)) throw AppError.upstream('execution service is unreachable');
      throw new ExecutionServiceUncertainError('execution service connection failed');
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw AppError.upstream(`execution service answered ${res.status}`);
    }
    // A 2xx: the service took the call, whatever the body turns out to be.
    let json: unknown;
    try {
      json = await res.json();
    } catch (err) {
      if (isTimeout(err)) throw new ExecutionServiceUncertainError('execution service timed out');
      throw new ExecutionServiceUncertainError('execution service sent a malformed answer');
    }
    const parsed = order.safeParse(json);
    if (!parsed.success) throw new ExecutionServiceUncertainError('execution service sent an unexpected answer');
    return parsed.data;
  }
}
