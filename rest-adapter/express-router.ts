import { createHash } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import {
  createSourceEventStream,
  execute,
  getNamedType,
  isInputObjectType,
  isNonNullType,
  OperationTypeNode,
  Kind,
  typeFromAST,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { z } from 'zod';
import { AppError } from '../src/errors/app-error';
import { classifyGraphQLError } from '../src/errors/classify-error';
import type { Logger } from '../src/http/logger';
import { sendError } from '../src/http/send-error';
import { SseStream, sseFrame } from '../src/http/sse';
import { clientAddressOf, type StreamHooks } from '../src/http/stream-limits';
import { parseInputs } from './inputs';
import type { AnyRouteDef, RouteAuth, Surface } from './route.types';
import { SharedStreamMessages, type StreamMessage } from './shared-stream-messages';

/** A per-process response memo (a cached route keeps one): read-through per key, dropped at once. */
export interface ResponseMemo {
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** Whether `key` still holds the read that produced `value`. */
  holds(key: string, value: unknown): boolean;
  invalidate(): void;
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
  /**
   * A response memo of the given TTL for each cached route; `weigh` gives the bytes of one of its
   * answers (its encoded body and ETag), for a memo bounded by bytes.
   */
  memo: (ttlMs: number, weigh: (answer: unknown) => number) => ResponseMemo;
  etagMaxAgeSeconds: number;
  heartbeatMs?: number;
  /** Stream admission (caps per client address and in total), the buffer bound and counters. */
  streams?: StreamHooks;
  /** Subscribes to a pub/sub topic (response-cache invalidation). */
  subscribe?: (topic: string, listener: () => void) => Promise<unknown>;
  /**
   * The GraphQL limits of every surface (depth, aliases, tokens, directives, cost), checked with
   * the request's variables before the operation runs: it throws the 400 naming the limit.
   */
  checkLimits?: (document: DocumentNode, variables: Record<string, unknown>) => void;
  /** Executes a route's query or mutation (the server's compiled executor); default: graphql-js. */
  execute?: (args: {
    document: DocumentNode;
    variableValues: Record<string, unknown>;
    contextValue: C;
  }) => Promise<ExecutionResult> | ExecutionResult;
  /**
   * Executes a stream route's subscription on one event of its source stream (the server's
   * compiled executor); default: graphql-js's `execute` with the event as root value.
   */
  executeEvent?: (args: {
    document: DocumentNode;
    variableValues: Record<string, unknown>;
    contextValue: C;
    rootValue: unknown;
  }) => Promise<ExecutionResult> | ExecutionResult;
  /**
   * Told of each public cached answer sent in full, with whether the route's memo still holds it
   * (the server answers the same request again before Express while it does: src/http/repeat-answers.ts).
   */
  keepAnswer?: (req: Request, res: Response, route: string, body: Buffer, isCurrent: () => boolean) => void;
}

/** What a cached route keeps per variables: the body and its ETag. */
interface CachedResponse {
  /** Encoded once: a cached body is sent many times. */
  body: Buffer;
  etag: string;
}

/** The bytes a cached answer holds: its body and its ETag. */
function weighCachedResponse(answer: unknown): number {
  const { body, etag } = answer as CachedResponse;
  return body.length + etag.length;
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

/**
 * Checks a route's document against the schema at start: a route whose
 * operation no longer validates must stop the process, not fail per request.
 */
export function assertRouteValid(schema: GraphQLSchema, route: AnyRouteDef): void {
  const doc = route.document as DocumentNode;
  const errors = validate(schema, doc);
  if (errors.length > 0) {
    throw new Error(`route ${route.id}: operation does not validate: ${errors.map((e) => e.message).join('; ')}`);
  }
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!op) throw new Error(`route ${route.id}: document has no operation`);
  if ((op.operation === OperationTypeNode.SUBSCRIPTION) !== (route.stream !== undefined)) {
    throw new Error(`route ${route.id}: stream routes run subscriptions and only they do`);
  }
  // A cache hit skips the resolvers, so only queries whose access is settled before routing
  // qualify: public ones, and API-key ones (the market-data gate checks key, scope and limit
  // first; such a route must serve the same data to every key).
  if (route.cache && (!['none', 'api-key'].includes(route.auth) || op.operation !== OperationTypeNode.QUERY)) {
    throw new Error(`route ${route.id}: only public or API-key queries may be cached`);
  }
  const root = route.result.split('.')[0];
  const hasRoot = op.selectionSet.selections.some(
    (s) => s.kind === Kind.FIELD && (s.alias?.value ?? s.name.value) === root,
  );
  if (!hasRoot) throw new Error(`route ${route.id}: result path ${route.result} is not selected`);
  const problem = variableProblem(schema, route, op);
  if (problem) throw new Error(`route ${route.id}: ${problem}`);
}

/** Stands for a parameter's value when a route's `variables` mapping is run on a sample at start. */
const SAMPLE = 'sample';

/**
 * The parameters a route reads (path, query, body keys and the raw-body
 * variable), each with whether every accepted request carries it: a key whose
 * schema refuses or defaults an absent value always arrives.
 */
function routeParameters(route: AnyRouteDef): Map<string, boolean> {
  const out = new Map<string, boolean>();
  if (route.rawBody) out.set(route.rawBody.variable, true);
  for (const where of ['body', 'query', 'path'] as const) {
    const shape = (route.params?.[where]?.shape ?? {}) as Record<string, z.ZodType>;
    for (const [name, schema] of Object.entries(shape)) {
      const absent = schema.safeParse(undefined);
      out.set(name, where === 'path' || !absent.success || absent.data !== undefined);
    }
  }
  return out;
}

/** What the route hands the operation (as `variablesFor` does), run on a sample request with these parameters. */
function sampleVariables(route: AnyRouteDef, names: readonly string[]): Record<string, unknown> {
  const input = Object.fromEntries(names.map((n) => [n, SAMPLE]));
  let vars: Record<string, unknown>;
  try {
    vars = (route.variables ? route.variables(input) : input) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`route ${route.id}: its variables mapping fails on a sample request: ${String(err)}`);
  }
  return Object.fromEntries(Object.entries(vars).filter(([, v]) => v !== undefined));
}

/**
 * Checks what a route sends against its operation's variables. Every name it
 * sends must be declared: graphql-js ignores an undeclared variable, so a
 * renamed one would drop the parameter without a word (and an unknown input
 * field would fail every request). Every required variable (non-null, no
 * default) must be sent by every request the route accepts. Input-object
 * variables (`{ input }`) are checked the same way one level down.
 */
function variableProblem(schema: GraphQLSchema, route: AnyRouteDef, op: OperationDefinitionNode): string | undefined {
  const params = routeParameters(route);
  const all = sampleVariables(route, [...params.keys()]);
  const alwaysSent = [...params].filter(([, always]) => always).map(([name]) => name);
  const always = sampleVariables(route, alwaysSent);
  const declared = new Map(
    (op.variableDefinitions ?? []).map((d) => [
      d.variable.name.value,
      { type: typeFromAST(schema, d.type) as GraphQLInputType | undefined, required: isRequired(d) },
    ]),
  );
  const names = [...declared.keys()].map((n) => `$${n}`).join(', ') || 'none';
  for (const [name, value] of Object.entries(all)) {
    const v = declared.get(name);
    if (!v) return `parameter "${name}" is not a variable of the operation (its variables: ${names})`;
    const fieldProblem = inputFieldProblem(name, v.type, value, always[name]);
    if (fieldProblem) return fieldProblem;
  }
  for (const [name, v] of declared) {
    if (v.required && always[name] === undefined) {
      return `the operation's required variable $${name} is not sent by every request the route accepts`;
    }
  }
  return undefined;
}

function isRequired(d: NonNullable<OperationDefinitionNode['variableDefinitions']>[number]): boolean {
  return d.type.kind === Kind.NON_NULL_TYPE && d.defaultValue === undefined;
}

/** The same check on an input object the route builds from its parameters (`{ input }`). */
function inputFieldProblem(
  variable: string,
  type: GraphQLInputType | undefined,
  value: unknown,
  alwaysValue: unknown,
): string | undefined {
  const named = type && getNamedType(type);
  if (!isInputObjectType(named) || typeof value !== 'object' || value === null || Array.isArray(value)) {
    return undefined;
  }
  const fields = named.getFields();
  for (const key of Object.keys(value)) {
    if (!fields[key]) return `parameter "${variable}.${key}" is not a field of ${named.name}`;
  }
  const present = (alwaysValue ?? {}) as Record<string, unknown>;
  for (const f of Object.values(fields)) {
    if (isNonNullType(f.type) && f.defaultValue === undefined && present[f.name] === undefined) {
      return `the required field ${named.name}.${f.name} is not sent by every request the route accepts`;
    }
  }
  return undefined;
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

function etagOf(body: Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
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
    const memo = route.cache ? deps.memo(route.cache.ttlMs, weighCachedResponse) : undefined;
    if (route.cache && memo) void deps.subscribe?.(route.cache.invalidatedBy, () => memo.invalidate());
    router[method](expressPath(route.path), (req, res) => {
      res.locals.route = route.path;
      // One context per request, made only when something needs it (a cache hit does not).
      let ctx: C | undefined;
      const context = () => (ctx ??= deps.context(req));
      const run = route.stream
        ? runStream(route, req, res, deps, context, shared)
        : runOperation(route, req, res, deps, context, memo);
      run.catch((err: unknown) => fail(res, err, deps.logger, req));
    });
  }
  return router;
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

async function execute1<C>(
  route: AnyRouteDef,
  deps: RestRouterDeps<C>,
  context: () => C,
  variableValues: Record<string, unknown>,
) {
  const args = { document: route.document as DocumentNode, variableValues, contextValue: context() };
  const result = await (deps.execute ? deps.execute(args) : execute({ schema: deps.schema, ...args }));
  if (result.errors && result.errors.length > 0) throw result.errors[0];
  const data = pick(result.data, route.result);
  const body = Buffer.from(route.representation ? route.representation.render(data) : JSON.stringify(data ?? null));
  return { body, etag: etagOf(body) };
}

async function runOperation<C>(
  route: AnyRouteDef,
  req: Request,
  res: Response,
  deps: RestRouterDeps<C>,
  context: () => C,
  memo: ResponseMemo | undefined,
): Promise<void> {
  const variableValues = await variablesFor(route, req, deps, context);
  deps.checkLimits?.(route.document as DocumentNode, variableValues);
  const key = memo ? JSON.stringify(variableValues) : undefined;
  const answer = memo
    ? await memo.get<CachedResponse>(key!, () => execute1(route, deps, context, variableValues))
    : await execute1(route, deps, context, variableValues);
  const { body, etag } = answer;
  if (route.deprecated) {
    res.setHeader('deprecation', `@${Math.floor(route.deprecated.since.getTime() / 1000)}`);
    res.setHeader('link', `<${route.deprecated.successor}>; rel="successor-version"`);
  }
  if (route.etag) {
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
  if (memo && route.auth === 'none' && deps.keepAnswer) {
    deps.keepAnswer(req, res, route.path, body, () => memo.holds(key!, answer));
  }
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
  const variableValues = await variablesFor(route, req, deps, context);
  deps.checkLimits?.(route.document as DocumentNode, variableValues);
  const args = {
    schema: deps.schema,
    document: route.document as DocumentNode,
    variableValues,
    contextValue: context(),
  };
  // graphql-js's subscribe() is this source stream with the operation executed per event; run here,
  // a public route's message is made once per event for all its clients (SharedStreamMessages).
  const result = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in result)) {
    throw result.errors?.[0] ?? new AppError('internal', 'subscription failed');
  }
  const messageKey = route.auth === 'none' ? `${route.id}\u0000${JSON.stringify(variableValues)}` : undefined;
  const makeMessage = async (event: unknown): Promise<StreamMessage> => {
    const item = await (deps.executeEvent ?? execute)({ ...args, rootValue: event });
    if (item.errors?.length) return { error: item.errors[0] };
    const value = pick(item.data, route.result) as Record<string, unknown>;
    const id = String(value[stream.idField]);
    const name = stream.eventField ? String(value[stream.eventField]) : stream.event;
    return { id, frame: Buffer.from(sseFrame(name, id, value)) };
  };
  const sse = new SseStream(res, {
    heartbeatMs: deps.heartbeatMs,
    maxBufferBytes: deps.streams?.maxBufferBytes,
    onDrop: (unsent) => deps.streams?.dropped('rest', unsent),
  });
  sse.open();
  deps.streams?.opened('rest');
  // The client leaving ends the iterator, which unsubscribes from the pub/sub.
  const events = result[Symbol.asyncIterator]();
  void sse.closed.then(() => events.return?.());
  // An error message repeats the last delivered id: a client reconnecting with it as
  // Last-Event-ID resumes after what it got (an id of its own would not be resumable).
  let lastId: string | undefined;
  try {
    for await (const event of { [Symbol.asyncIterator]: () => events }) {
      const message = await (messageKey === undefined
        ? makeMessage(event)
        : shared.messageOf(event, messageKey, () => makeMessage(event)));
      if ('error' in message) {
        const c = classifyGraphQLError(message.error);
        sse.send('error', lastId, { error: c.code, message: c.message });
        // A dependency down (the database unreachable): the client reconnects later, with Last-Event-ID.
        if (c.code === 'unavailable') break;
        continue;
      }
      lastId = message.id;
      sse.sendFrame(message.frame);
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
