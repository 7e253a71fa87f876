import { z } from 'zod';
import { AppError } from '../../errors/app-error';
import type { OutcomeSide, Side } from '../../venues/venue.types';

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
 * the bearer: the service trades for that wallet. Any failure (network,
 * timeout, non-2xx, an answer of the wrong shape) is a 502 that never echoes
 * the upstream's body.
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

  private async call(method: 'GET' | 'POST', path: string, token: string | undefined, body?: unknown, key?: string): Promise<ExecutionServiceOrder> {
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
      const why = err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : 'is unreachable';
      throw AppError.upstream(`execution service ${why}`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw AppError.upstream(`execution service answered ${res.status}`);
    }
    let json: unknown;
    try {
      json = await res.json();
    } catch {
      throw AppError.upstream('execution service sent a malformed answer');
    }
    const parsed = order.safeParse(json);
    if (!parsed.success) throw AppError.upstream('execution service sent an unexpected answer');
    return parsed.data;
  }
}
