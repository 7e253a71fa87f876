import type { z } from 'zod';
import { AppError } from '../errors/app-error';
import type { UpstreamConfig } from '../config';

export interface JsonRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Sent as `Idempotency-Key`, so a retried call is one operation at the upstream. */
  idempotencyKey?: string;
}

/**
 * A small JSON-over-HTTP client of one upstream (base URL, bearer API key,
 * timeout). Every failure, network, status or an answer of the wrong shape,
 * becomes a 502 that names the upstream and never echoes its body.
 */
export class JsonHttpClient {
  private readonly base: string;

  constructor(
    private readonly name: string,
    config: UpstreamConfig & { url: string },
    private readonly timeoutMs: number,
    private readonly apiKey = config.apiKey,
  ) {
    this.base = config.url.replace(/\/+$/, '');
  }

  async request<S extends z.ZodType>(req: JsonRequest, schema: S): Promise<z.infer<S>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    if (req.idempotencyKey) headers['idempotency-key'] = req.idempotencyKey;
    let res: Response;
    try {
      res = await fetch(`${this.base}${req.path}`, {
        method: req.method,
        headers,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const why = err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : 'is unreachable';
      throw AppError.upstream(`${this.name} ${why}`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw AppError.upstream(`${this.name} answered ${res.status}`);
    }
    let json: unknown;
    try {
      json = await res.json();
    } catch {
      throw AppError.upstream(`${this.name} sent a malformed answer`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw AppError.upstream(`${this.name} sent an unexpected answer`);
    return parsed.data;
  }
}

/** A decimal amount as upstreams send it: a string ("12.5") or a JSON number. */
export function decimalText(value: string | number): string {
  return typeof value === 'number' ? String(value) : value;
}
