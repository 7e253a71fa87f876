import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { ByteLru, utf8Bytes } from '../infra/byte-lru';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import { acceptJsonBody, type BodyLimits } from './body-gate';
import { requestIdFrom } from './request-context';
import { recordRequest } from './request-record';

/**
 * Repeated public reads answered before Express.
 *
 * Profiling the cached REST events page (`node --cpu-prof`) put most of its
 * time in Express itself: the router walk over every mounted path, helmet's
 * eight middlewares, the body parser and `res.send`'s header work, around an
 * answer that was already a Buffer in the route's response memo. The same page
 * through `/graphql` added Apollo's request pipeline and a fresh 67 KB Buffer
 * per answer (a sixth of its CPU went to the garbage collector).
 *
 * So each public answer served from a cache, sent in full to a request that
 * carried nothing but its URL (a REST `GET`) or its URL and JSON body (a
 * `POST /graphql`), is kept here with the exact headers that were written for
 * it; the same request again is written straight from here while the cache
 * still holds that very answer. What a client or an operator sees is
 * unchanged: the headers (the request id made per request), the request
 * counter and latency histogram, the request log line. Anything else, or any
 * doubt, goes to Express.
 *
 * Nothing here is a second cache: an entry points at the answer a cache holds,
 * and `isCurrent` asks that cache whether it still holds it (the REST route's
 * memo or the executor's public reads: their TTL and invalidation topics
 * decide, as for every other request). An entry still holds its body after
 * that cache let it go, until it is asked for again or evicted: so the entries
 * are bounded by bytes (body and key) as well as by count, least recently
 * served first out.
 */
export interface RepeatAnswer {
  /** The route, as the request log and metrics name it. */
  route: string;
  /** The headers that were written, without the per-request ones (x-request-id, date, content-length). */
  headers: OutgoingHttpHeaders;
  /** The request id header's name as it was set (its value is made per request). */
  requestIdHeader: string;
  body: Buffer;
  /** Whether the cache the answer came from still holds it. */
  isCurrent: () => boolean;
}

/** Headers made per request, never copied from one answer to the next. */
const PER_REQUEST = new Set([
  'x-request-id',
  'date',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/** Bounds the requests kept: a client can vary a query string or a body at will. */
const MAX_KEPT = 1000;

/** The GraphQL bodies read here at most (a page query with variables is well under this). */
const MAX_GRAPHQL_BODY = 16 * 1024;

/** The JSON types the body gate reads as UTF-8 JSON, without other parameters. */
const PLAIN_JSON = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);

/** A request that carries no credential a GraphQL context would read, nor a cookie. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'x-api-key'];

export class RepeatAnswers {
  private readonly kept: ByteLru<string, RepeatAnswer>;
  /** Requests answered from here (tests and the benchmark read it). */
  served = 0;

  constructor(
    private readonly metrics: Pick<Metrics, 'observeRequest'>,
    private readonly logger: Logger,
    /** The body limits every body is read under (src/http/body-gate.ts). */
    private readonly bodyLimits: BodyLimits,
    /** Bytes of kept bodies and keys at most (the bounds of the caches they point into, together). */
    maxBytes: number,
    private readonly graphqlPath = '/graphql',
  ) {
    this.kept = new ByteLru(maxBytes, { maxEntries: MAX_KEPT });
  }

  /** The bytes and count of the answers kept. */
  get keptAnswers(): { bytes: number; entries: number } {
    return { bytes: this.kept.bytes, entries: this.kept.size };
  }

  /**
   * Whether a request's answer can depend on nothing but its method, URL and
   * body: a CORS origin, a forwarded or TLS scheme (HSTS), a conditional
   * request (304), an event stream or a credential all go through Express.
   */
  private static plain(req: IncomingMessage): boolean {
    const h = req.headers;
    return (
      h.origin === undefined &&
      h['if-none-match'] === undefined &&
      h['if-modified-since'] === undefined &&
      h['x-forwarded-proto'] === undefined &&
      h['content-encoding'] === undefined &&
      !h.accept?.includes('text/event-stream') &&
      !CREDENTIAL_HEADERS.some((name) => h[name] !== undefined) &&
      !(req.socket as { encrypted?: boolean }).encrypted
    );
  }

  /**
   * The key a bodiless GET that qualifies is kept under, if any: its URL (as received:
   * Express's routers rewrite `req.url`) and Accept.
   */
  static keyOf(req: IncomingMessage & { originalUrl?: string }): string | undefined {
    const h = req.headers;
    const url = req.originalUrl ?? req.url;
    if (req.method !== 'GET' || h['content-length'] !== undefined || h['transfer-encoding'] !== undefined) {
      return undefined;
    }
    return url !== undefined && RepeatAnswers.plain(req) ? `GET ${url}\n${h.accept ?? ''}` : undefined;
  }

  /** A small JSON POST to /graphql, whose body is read here before the key is known. */
  private graphqlPost(req: IncomingMessage): boolean {
    const h = req.headers;
    const length = Number(h['content-length']);
    return (
      req.method === 'POST' &&
      req.url === this.graphqlPath &&
      h['transfer-encoding'] === undefined &&
      Number.isInteger(length) &&
      length <= Math.min(MAX_GRAPHQL_BODY, this.bodyLimits.limitBytes) &&
      PLAIN_JSON.has(String(h['content-type']).toLowerCase()) &&
      RepeatAnswers.plain(req)
    );
  }

  /**
   * Answers a repeated request from here, or hands it to `next` (Express).
   * A `POST /graphql` body read here reaches Express as the body gate would
   * have left it, and its answer is offered to `keepGraphql` once sent.
   */
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    next: () => void,
    keepGraphql?: (req: IncomingMessage, res: ServerResponse, key: string) => void,
  ): void {
    const key = this.kept.size > 0 ? RepeatAnswers.keyOf(req) : undefined;
    if (key !== undefined && this.serve(key, req, res)) return;
    if (keepGraphql === undefined || !this.graphqlPost(req)) return next();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      // Apollo answers in the media type the Accept header prefers.
      const graphqlKey = `POST ${req.url}\n${req.headers.accept ?? ''}\n${body.toString('latin1')}`;
      if (this.serve(graphqlKey, req, res)) return;
      // As the body gate would have taken it: the gate then sees a finished request and lets it be.
      acceptJsonBody(req, body, this.bodyLimits.maxDepth);
      res.once('finish', () => keepGraphql(req, res, graphqlKey));
      next();
    });
  }

  /** Keeps the answer just sent in full for the request `key` names. */
  keep(key: string, res: ServerResponse, route: string, body: Buffer, isCurrent: () => boolean): void {
    if (res.statusCode !== 200) return;
    const headers: OutgoingHttpHeaders = {};
    let requestIdHeader = 'x-request-id';
    // Names as they were set and in their order (HTTP does not care, but a repeat should not
    // differ at all); the request id keeps its place, its value made per request.
    // (`getRawHeaderNames` is Node's since 15.13; the type declarations here lack it.)
    for (const name of (res as ServerResponse & { getRawHeaderNames(): string[] }).getRawHeaderNames()) {
      const lower = name.toLowerCase();
      const value = res.getHeader(name);
      if (lower === 'x-request-id') {
        headers[name] = '';
        requestIdHeader = name;
      } else if (!PER_REQUEST.has(lower) && value !== undefined) headers[name] = value;
    }
    this.kept.set(key, { route, headers, requestIdHeader, body, isCurrent }, body.length + utf8Bytes(key));
  }

  private serve(key: string, req: IncomingMessage, res: ServerResponse): boolean {
    const kept = this.kept.get(key);
    if (kept === undefined) return false;
    if (!kept.isCurrent()) {
      this.kept.delete(key);
      return false;
    }
    const started = process.hrtime.bigint();
    const requestId = requestIdFrom(req.headers);
    const headers: OutgoingHttpHeaders = { ...kept.headers, [kept.requestIdHeader]: requestId };
    headers['content-length'] = kept.body.length;
    res.writeHead(200, headers);
    res.end(kept.body);
    this.served += 1;
    // As the request middleware does for every answer Express writes.
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    recordRequest(this.metrics, this.logger, {
      requestId,
      method: req.method ?? 'GET',
      route: kept.route,
      status: 200,
      seconds,
    });
    return true;
  }
}
