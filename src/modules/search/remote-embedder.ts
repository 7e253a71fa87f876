import { AppError } from '../../errors/app-error';
import type { Embedder } from './embedder.types';
import { l2Normalize } from './vector-math';

/** How to reach an OpenAI-style embeddings API. */
export interface RemoteEmbedderOptions {
  /** The endpoint itself, e.g. `https://api.openai.com/v1/embeddings`. */
  url: string;
  /** Bearer key; unset → every call answers 503 (`unavailable`). */
  apiKey?: string;
  model: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

interface EmbeddingsResponse {
  data?: { embedding?: unknown; index?: unknown }[];
}

/**
 * Embeddings over HTTP: `POST url` with `{"model", "input": [texts]}` and
 * `Authorization: Bearer <key>`, answered by `{"data": [{"embedding": [...], "index": i}]}`
 * (the OpenAI shape, which most hosted and self-hosted servers speak).
 * No key → `unavailable` (503); a non-2xx answer, a malformed body, a network
 * error or the timeout → `upstream_error` (502). Vectors are L2-normalized here.
 */
export class RemoteEmbedder implements Embedder {
  readonly provider = 'remote' as const;
  readonly model: string;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly opts: RemoteEmbedderOptions) {
    this.model = opts.model;
    this.fetchFn = opts.fetch ?? fetch;
  }

  async embed(texts: readonly string[]): Promise<number[][]> {
    if (!this.opts.apiKey) throw AppError.unavailable('search: the embedding key is not configured');
    if (texts.length === 0) return [];
    let res: Response;
    let body: EmbeddingsResponse;
    try {
      res = await this.fetchFn(this.opts.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.opts.apiKey}` },
        body: JSON.stringify({ model: this.model, input: texts }),
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      if (!res.ok) {
        // Drain the body so the connection can be reused; its text may hold secrets, so it is not echoed.
        await res.text().catch(() => undefined);
        throw AppError.upstream(`search: the embedding service answered ${res.status}`);
      }
      body = (await res.json()) as EmbeddingsResponse;
    } catch (err) {
      if (err instanceof AppError) throw err;
      const name = (err as { name?: string }).name;
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      throw AppError.upstream(
        timedOut
          ? `search: the embedding service timed out after ${this.opts.timeoutMs} ms`
          : 'search: the embedding service could not be reached',
      );
    }
    return parseVectors(body, texts.length);
  }
}

function parseVectors(body: EmbeddingsResponse, expected: number): number[][] {
  const rows = Array.isArray(body?.data) ? body.data : [];
  const out: number[][] = new Array<number[]>(expected);
  rows.forEach((row, i) => {
    const index = typeof row.index === 'number' ? row.index : i;
    const v = row.embedding;
    if (
      Array.isArray(v) &&
      v.length > 0 &&
      v.every((x) => typeof x === 'number' && Number.isFinite(x)) &&
      index >= 0 &&
      index < expected
    ) {
      out[index] = l2Normalize([...(v as number[])]);
    }
  });
  const dimension = out[0]?.length;
  for (let i = 0; i < expected; i++) {
    if (out[i] === undefined || out[i].length !== dimension) {
      throw AppError.upstream('search: the embedding service answered an unexpected body');
    }
  }
  return out;
}
