import express, { type Request, type Response } from 'express';
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import { AppError } from '../src/errors/app-error';
import { classifyGraphQLError } from '../src/errors/classify-error';
import type { Logger } from '../src/http/logger';
import { sendError } from '../src/http/send-error';
import { SseFrame, SseStream } from '../src/http/sse';
import { clientAddressOf, type StreamHooks } from '../src/http/stream-limits';
import { parseInputs } from './inputs';
import { assertRouteValid } from './route-check';
import type { AnyRouteDef, RouteAuth, Surface } from './route.types';
import { isPromise, isPushSource, type MaybePromise } from '../src/http/push-source';
import { SharedStreamMessages, type StreamMessage } from './shared-stream-messages';
import { deliverPushed } from './stream-delivery';

/** A route's rendering of its operation's data: its id and how its body is made (JSON or a representation). */
export interface RouteView {
  readonly id: string;
  render(data: Readonly<Record<string, unknown>> | null | undefined): Buffer;
}

/** One operation of a route's request: its document, the variables the request gave, the request's context. */
export interface RouteOperation<C> {
  document: DocumentNode;
  variables: Record<string, unknown>;
  /** Made when first needed (an answer from the cache needs none). */
  context: () => C;
}

/** A route's answer body and its ETag (computed when asked). */
export interface RouteBody {
  readonly body: Buffer;
  readonly etag: string;
}

/**
 * How routes run their operations: the server's operation pipeline (src/graphql/pipeline), the
 * same for `/graphql`, `/graphql/stream` and the routes. It checks the GraphQL limits and cost
 * before anything runs (a 400 naming the limit), answers from its one answer cache what may be
 * shared, and executes compiled.
 */
export interface RouteOperations<C> {
  /**
   * A query or mutation, written as `view`: from the answer cache when the operation is a public
   * read or the route is `cached` (its access settled before it runs), else executed. `cached`
   * on the answer is the cache's entry; `errors` when the operation failed (the first is the answer).
   */
  answer(
    op: RouteOperation<C>,
    view: RouteView,
    cached: boolean,
  ): Promise<{ serialized: RouteBody; cached?: unknown } | { errors: readonly unknown[] }>;
  /** A stream route's subscription: its source event stream, or the result that says why it did not start. */
  openStream(op: RouteOperation<C>): Promise<AsyncIterable<unknown> | ExecutionResult>;
  /** The subscription's selection executed on one event of its source stream. */
  executeEvent(op: RouteOperation<C> & { event: unknown }): Promise<ExecutionResult> | ExecutionResult;
}

/** What the router needs from the server; `C` is the server's GraphQL context, opaque here. */
export interface RestRouterDeps<C> {
  schema: GraphQLSchema;
  logger: Logger;
  /** The shared context factory (same as /graphql). */
  context: (req: Request) => C;
  /**
   * Checks the credential a route's `auth` names, before its inputs are read
   * (route-auth.ts's `authenticateRoute` over the context's credentials).
   */
  authenticate: (auth: RouteAuth, ctx: C) => Promise<void>;
  operations: RouteOperations<C>;
  etagMaxAgeSeconds: number;
  heartbeatMs?: number;
  /** Stream admission (caps per client address and in total), the buffer bound and counters. */
  streams?: StreamHooks;
  /**
   * Told of each public answer from the answer cache sent in full (`cached` as the operations gave
   * it): the server writes the same request again before Express while the cache holds it
   * (src/http/fast-path.ts).
   */
  answerWritten?: (req: Request, res: Response, route: AnyRouteDef, cached: unknown) => void;
}

/** Express path from an OpenAPI template: `/api/events/{slug}` → `/api/events/:slug`. */
export function expressPath(template: string): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

/** Literal segments before parameters, so `/api/events/discover` wins over `/api/events/{slug}`. */
export function bySpecificity(a: AnyRouteDef, b: AnyRouteDef): number {
  const sa = a.path.split('/');
  const sb = b.path.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i += 1) {
    const pa = sa[i].startsWith('{');
    const pb = sb[i].startsWith('{');
    if (pa !== pb) return pa ? 1 : -1;
  }
  return 0;
}

function pick(data: unknown, path: string): unknown {
  let cur = data;
  for (const key of path.split('.')) cur = (cur as Record<string, unknown> | null)?.[key];
  return cur;
}

/** The Cache-Control header sent with ETags (the admin cache policy reports it). */
export function etagCacheControl(maxAgeSeconds: number): string {
  return `public, max-age=${maxAgeSeconds}, must-revalidate`;
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/** Builds the express router of one surface from the route table. */
export function createRestRouter<C>(
  routes: readonly AnyRouteDef[],
  surface: Surface,
  deps: RestRouterDeps<C>,
): express.Router {
  const router = express.Router();
  const mine = routes.filter((r) => r.surface === surface).sort(bySpecificity);
  const shared = new SharedStreamMessages();
  for (const route of mine) {
    assertRouteValid(deps.schema, route);
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    const view = viewOf(route);
    router[method](expressPath(route.path), (req, res) => {
      res.locals.route = route.path;
      // One context per request, made only when something needs it (a cached answer does not).
      let ctx: C | undefined;
      const context = () => (ctx ??= deps.context(req));
      const run = route.stream
        ? runStream(route, req, res, deps, context, shared)
        : runOperation(route, view, req, res, deps, context);
      run.catch((err: unknown) => fail(res, err, deps.logger, req));
    });
  }
  return router;
}

/** A route's body: its result path of the data, as JSON or in its representation. */
function viewOf(route: AnyRouteDef): RouteView {
  return {
    id: route.id,
    render: (data) => {
      const result = pick(data, route.result);
      return Buffer.from(route.representation ? route.representation.render(result) : JSON.stringify(result ?? null));
    },
  };
}

function fail(res: Response, err: unknown, logger: Logger, req: Request): void {
  const c = classifyGraphQLError(err);
  if (c.unexpected !== undefined)
    logger.error({ err: c.unexpected, reqId: res.locals.requestId, path: req.path }, 'request failed');
  sendError(res, c.code, c.message, c.details);
}

/** The route's credential first, then its inputs: the operation's variables. */
async function variablesFor<C>(
  route: AnyRouteDef,
  req: Request,
  deps: RestRouterDeps<C>,
  context: () => C,
): Promise<Record<string, unknown>> {
  if (route.auth !== 'none') await deps.authenticate(route.auth, context());
  const input = parseInputs(route, req);
  const vars = route.variables ? (route.variables(input) as Record<string, unknown>) : input;
  return Object.fromEntries(Object.entries(vars).filter(([, v]) => v !== undefined));
}

async function runOperation<C>(
  route: AnyRouteDef,
  view: RouteView,
  req: Request,
  res: Response,
  deps: RestRouterDeps<C>,
  context: () => C,
): Promise<void> {
  const variables = await variablesFor(route, req, deps, context);
  const document = route.document as DocumentNode;
  const answer = await deps.operations.answer({ document, variables, context }, view, route.cache !== undefined);
  if ('errors' in answer) throw answer.errors[0];
  const { body } = answer.serialized;
  if (route.deprecated) {
    res.setHeader('deprecation', `@${Math.floor(route.deprecated.since.getTime() / 1000)}`);
    res.setHeader('link', `<${route.deprecated.successor}>; rel="successor-version"`);
  }
  if (route.etag) {
    const { etag } = answer.serialized;
    res.setHeader('etag', etag);
    res.setHeader('cache-control', etagCacheControl(deps.etagMaxAgeSeconds));
    if (matchesEtag(req.get('if-none-match'), etag)) {
      res.status(304).end();
      return;
    }
  }
  const format = route.representation;
  if (format?.filename) res.setHeader('content-disposition', `attachment; filename="${format.filename}"`);
  res
    .status(route.status ?? 200)
    .type(format?.contentType ?? 'application/json')
    .send(body);
  if (answer.cached !== undefined && route.auth === 'none') deps.answerWritten?.(req, res, route, answer.cached);
}

async function runStream<C>(
  route: AnyRouteDef,
  req: Request,
  res: Response,
  deps: RestRouterDeps<C>,
  context: () => C,
  shared: SharedStreamMessages,
): Promise<void> {
  const stream = route.stream!;
  // The slot is taken first and held until the response closes, whatever answer it gets.
  deps.streams?.admit(res, clientAddressOf(req));
  const variables = await variablesFor(route, req, deps, context);
  const op = { document: route.document as DocumentNode, variables, context };
  // graphql-js's subscribe() is this source stream with the operation executed per event; run here,
  // a public route's message is made once per event for all its clients (SharedStreamMessages).
  const result = await deps.operations.openStream(op);
  if (!(Symbol.asyncIterator in result)) {
    throw result.errors?.[0] ?? new AppError('internal', 'subscription failed');
  }
  const messageKey = route.auth === 'none' ? `${route.id}\u0000${JSON.stringify(variables)}` : undefined;
  const toMessage = (item: ExecutionResult): StreamMessage => {
    if (item.errors?.length) return { error: item.errors[0] };
    const value = pick(item.data, route.result) as Record<string, unknown>;
    const id = String(value[stream.idField]);
    const name = stream.eventField ? String(value[stream.eventField]) : stream.event;
    return { id, frame: SseFrame.of(name, id, value) };
  };
  // Synchronous when the compiled operation is (no promise per event unless one is needed).
  const makeMessage = (event: unknown): MaybePromise<StreamMessage> => {
    const item = deps.operations.executeEvent({ ...op, event });
    return isPromise(item) ? item.then(toMessage) : toMessage(item);
  };
  const messageOf = (event: unknown): MaybePromise<StreamMessage> =>
    messageKey === undefined ? makeMessage(event) : shared.messageOf(event, messageKey, () => makeMessage(event));
  // The client leaving ends the iterator, which unsubscribes from the pub/sub.
  const events = result[Symbol.asyncIterator]();
  const pushed = isPushSource(events);
  const sse = new SseStream(res, {
    heartbeatMs: deps.heartbeatMs,
    maxBufferBytes: deps.streams?.maxBufferBytes,
    onDrop: (unsent) => deps.streams?.dropped('rest', unsent),
    // A pulled stream is one client's (an order's, an account's): its burst of events leaves in one write.
    coalesce: !pushed,
  });
  sse.open();
  deps.streams?.opened('rest');
  void sse.closed.then(() => events.return?.());
  // An error message repeats the last delivered id: a client reconnecting with it as
  // Last-Event-ID resumes after what it got (an id of its own would not be resumable).
  let lastId: string | undefined;
  /** Writes one message; false once the stream ends (a dependency down: the client reconnects later). */
  const deliver = (message: StreamMessage): boolean => {
    if ('error' in message) {
      const c = classifyGraphQLError(message.error);
      sse.send('error', lastId, { error: c.code, message: c.message });
      return c.code !== 'unavailable';
    }
    lastId = message.id;
    sse.sendFrame(message.frame);
    return true;
  };
  try {
    if (pushed) await deliverPushed(events, messageOf, deliver, sse.closed);
    else {
      for await (const event of { [Symbol.asyncIterator]: () => events }) {
        if (!deliver(await messageOf(event))) break;
      }
    }
  } catch (err) {
    // The source failed (the database unreachable while it reads): an error event, then the end.
    const c = classifyGraphQLError(err);
    if (c.unexpected !== undefined) deps.logger.error({ err: c.unexpected, path: req.path }, 'stream failed');
    sse.send('error', lastId, { error: c.code, message: c.message });
  } finally {
    deps.streams?.closed('rest');
    sse.end();
  }
}
