import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { AnswerCache, type AnswerEntry, type CachedAnswer } from '../graphql/pipeline/answer-cache';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import { acceptJsonBody, type BodyLimits } from './body-gate';
import { requestIdFrom } from './request-context';
import { recordRequest } from './request-record';

/** Headers made per request, never copied from one answer to the next. */
const PER_REQUEST = new Set([
  'x-request-id',
  'date',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/** The GraphQL bodies read here at most (a page query with variables is well under this). */
const MAX_GRAPHQL_BODY = 16 * 1024;

/** The JSON types the body gate reads as UTF-8 JSON, without other parameters. */
const PLAIN_JSON = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);

/** A request that carries no credential a GraphQL context would read, nor a cookie. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'x-api-key'];

/** The view `/graphql` answers are written as (pipeline/operation-pipeline.ts's GRAPHQL_VIEW). */
const GRAPHQL_VIEW_ID = 'graphql';

/**
 * The pre-Express fast path: a request whose answer is in the answer cache
 * (src/graphql/pipeline/answer-cache.ts), and that carries nothing but its URL
 * (a REST `GET`) or its URL and a small JSON body (a `POST /graphql`), is
 * written from that cache entry by the server's request handler, before Express
 * runs, with the headers Express wrote for the same request the first time
 * (the request id made anew), and counted and logged like any other answer.
 * Anything else, or any doubt, goes to Express.
 *
 * A request names its cache entry through the request remembered when Express
 * sent it from the cache: its method, URL, `Accept` and, for a `POST /graphql`,
 * its body's bytes ({@link rememberRestAnswer} for a route). A `POST /graphql`
 * not remembered names it itself: the query, operation name and variables its
 * body holds are the answer's key. The cache's TTL and invalidation decide here as
 * everywhere: an answer it no longer holds is not written from here.
 */
export class FastPath {
  /** Requests answered here (tests and the benchmark read it). */
  written = 0;

  constructor(
    private readonly answers: AnswerCache,
    private readonly metrics: Pick<Metrics, 'observeRequest'>,
    private readonly logger: Logger,
    /** The body limits every body is read under (src/http/body-gate.ts). */
    private readonly bodyLimits: BodyLimits,
    private readonly graphqlPath = '/graphql',
  ) {}

  /**
   * Whether a request's answer can depend on nothing but its method, URL and
   * body: a CORS origin, a forwarded or TLS scheme (HSTS), a conditional
   * request (304), an event stream or a credential all go through Express.
   */
  private static dependsOnRequestLineAndBodyOnly(req: IncomingMessage): boolean {
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
   * The key a bodiless GET that qualifies is remembered under, if any: its URL (as received:
   * Express's routers rewrite `req.url`) and Accept.
   */
  static restRequestKey(req: IncomingMessage & { originalUrl?: string }): string | undefined {
    const h = req.headers;
    const url = req.originalUrl ?? req.url;
    if (req.method !== 'GET' || h['content-length'] !== undefined || h['transfer-encoding'] !== undefined) {
      return undefined;
    }
    return url !== undefined && FastPath.dependsOnRequestLineAndBodyOnly(req)
      ? `GET ${url}\n${h.accept ?? ''}`
      : undefined;
  }

  /** A small JSON POST to /graphql, whose body is read here before its answer's key is known. */
  private isSmallGraphqlPost(req: IncomingMessage): boolean {
    const h = req.headers;
    const length = Number(h['content-length']);
    return (
      req.method === 'POST' &&
      req.url === this.graphqlPath &&
      h['transfer-encoding'] === undefined &&
      Number.isInteger(length) &&
      length <= Math.min(MAX_GRAPHQL_BODY, this.bodyLimits.limitBytes) &&
      PLAIN_JSON.has(String(h['content-type']).toLowerCase()) &&
      FastPath.dependsOnRequestLineAndBodyOnly(req)
    );
  }

  /**
   * Writes the request's answer from the answer cache, or hands the request to
   * `toExpress`. A `POST /graphql` body read here reaches Express as the body
   * gate would have left it; its answer, once Express sent it in full from the
   * cache, is remembered for the same request again.
   */
  handle(req: IncomingMessage, res: ServerResponse, toExpress: () => void): void {
    const restKey = this.answers.remembersRequests ? FastPath.restRequestKey(req) : undefined;
    if (restKey !== undefined) {
      const remembered = this.answers.requestAnswer(restKey);
      if (remembered && this.writeCached(remembered.key, variantOf(remembered.view, req), req, res)) return;
    }
    if (!this.isSmallGraphqlPost(req)) return toExpress();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      // The same bytes again: the entry they were answered with, without parsing them.
      const requestKey = `POST ${req.url}\n${req.headers.accept ?? ''}\n${raw.toString('latin1')}`;
      const variant = variantOf(GRAPHQL_VIEW_ID, req);
      const remembered = this.answers.requestAnswer(requestKey);
      if (remembered && this.writeCached(remembered.key, variant, req, res)) return;
      // As the body gate would have taken it: the gate then sees a finished request and lets it be.
      acceptJsonBody(req, raw, this.bodyLimits.maxDepth);
      const operation = graphqlOperationOf((req as { body?: unknown }).body);
      if (operation !== undefined) {
        // The operation the body names is the answer's key, whatever the body's layout.
        const key = AnswerCache.keyOf(operation.query, operation.operationName, operation.variables);
        if (this.writeCached(key, variant, req, res)) return;
        res.once('finish', () => {
          const answer = this.answers.current(key);
          // Sent from the cache: its `/graphql` body was made (Apollo's headers depend on the request, not the data).
          if (!answer?.serializedAs(GRAPHQL_VIEW_ID) || res.statusCode !== 200) return;
          this.answers.rememberRequest(requestKey, key, GRAPHQL_VIEW_ID);
          this.remember(answer, variant, GRAPHQL_VIEW_ID, this.graphqlPath, res);
        });
      }
      toExpress();
    });
  }

  /**
   * Remembers a REST answer the route sent in full from the answer cache (`view` of the entry under
   * `key`), for the same request again.
   */
  rememberRestAnswer(
    req: IncomingMessage,
    res: ServerResponse,
    route: string,
    cached: AnswerEntry,
    view: string,
  ): void {
    const requestKey = FastPath.restRequestKey(req);
    if (requestKey === undefined || res.statusCode !== 200) return;
    this.answers.rememberRequest(requestKey, cached.key, view);
    this.remember(cached.answer, variantOf(view, req), view, route, res);
  }

  /** Records the headers just written with `view` of `answer` (names as set, in their order). */
  private remember(answer: CachedAnswer, variant: string, view: string, route: string, res: ServerResponse): void {
    if (res.statusCode !== 200) return;
    const headers: OutgoingHttpHeaders = {};
    let requestIdHeader = 'x-request-id';
    // HTTP does not care about order, but a repeat should not differ at all; the request id keeps
    // its place, its value made per request. (`getRawHeaderNames` is Node's since 15.13; the type
    // declarations here lack it.)
    for (const name of (res as ServerResponse & { getRawHeaderNames(): string[] }).getRawHeaderNames()) {
      const lower = name.toLowerCase();
      const value = res.getHeader(name);
      if (lower === 'x-request-id') {
        headers[name] = '';
        requestIdHeader = name;
      } else if (!PER_REQUEST.has(lower) && value !== undefined) headers[name] = value;
    }
    // The bytes the fast path writes, made now rather than on the first repeat.
    void answer.serializedAs(view)?.body;
    answer.recordWritten(variant, { route, view, headers, requestIdHeader });
  }

  private writeCached(key: string, variant: string, req: IncomingMessage, res: ServerResponse): boolean {
    const answer = this.answers.current(key);
    const written = answer?.writtenFor(variant);
    const body = written && answer!.serializedAs(written.view)?.body;
    if (written === undefined || body === undefined) return false;
    const started = process.hrtime.bigint();
    const requestId = requestIdFrom(req.headers);
    const headers: OutgoingHttpHeaders = { ...written.headers, [written.requestIdHeader]: requestId };
    headers['content-length'] = body.length;
    res.writeHead(200, headers);
    res.end(body);
    this.written += 1;
    // As the request middleware does for every answer Express writes.
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    recordRequest(this.metrics, this.logger, {
      requestId,
      method: req.method ?? 'GET',
      route: written.route,
      status: 200,
      seconds,
    });
    return true;
  }
}

/** What may vary the headers of an answer written as `view`: the media types the request accepts. */
function variantOf(view: string, req: IncomingMessage): string {
  return `${view}\n${req.headers.accept ?? ''}`;
}

/**
 * The operation a `/graphql` body names, when it names nothing else: its query, and its operation
 * name and variables if any. Any other member (extensions: a persisted query) goes to Express.
 */
function graphqlOperationOf(
  body: unknown,
): { query: string; operationName?: string | null; variables?: Record<string, unknown> | null } | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { query, operationName, variables, ...rest } = body as Record<string, unknown>;
  if (typeof query !== 'string' || Object.keys(rest).length > 0) return undefined;
  if (operationName != null && typeof operationName !== 'string') return undefined;
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  return { query, operationName, variables: variables as Record<string, unknown> | null | undefined };
}
