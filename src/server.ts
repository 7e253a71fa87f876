import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import { safeEqual } from './auth/constant-time';
import { createJwtVerifier } from './auth/jwt-verifier';
import type { AuthVerifiers } from './auth/request-auth';
import type { GraphQLContext } from './context';
import { createApolloMiddleware } from './graphql/apollo';
import { graphiqlRouter } from './graphql/graphiql';
import type { AnswerEntry } from './graphql/pipeline/answer-cache';
import { OperationPipeline } from './graphql/pipeline/operation-pipeline';
import { getResolvedFields, getSchema } from './graphql/schema';
import { createGraphqlSseHandler, type SseReservations } from './graphql/sse-handler';
import type { SseOperations } from './graphql/sse-operations';
import { apiDocsRouter } from './http/api-docs';
import { corsMiddleware } from './http/cors';
import { recordRequest } from './http/request-record';
import { FastPath } from './http/fast-path';
import { contextFromHttp, requestIdFrom, type ContextDeps } from './http/request-context';
import { sendError } from './http/send-error';
import { httpServerOptions } from './http/server-options';
import { adoptServerPrototypes, createHttpServer } from './http/server-classes';
import { toAppError } from './errors/normalize-error';
import { StreamSlots, type StreamHooks } from './http/stream-limits';
import { bodyGate, graphqlInputGate } from './http/body-gate';
import { buildOpenApi } from '../rest-adapter/openapi';
import { createRestRouter, type RestRouterDeps } from '../rest-adapter/express-router';
import { authenticateRoute } from '../rest-adapter/route-auth';
import { ROUTES } from '../rest-adapter/routes';
import { routeTemplateMatcher } from '../rest-adapter/route-matcher';
import { apiKeyGateMiddleware } from './modules/api-keys/api-key.middleware';
import type { AppServices } from './kernel';
import { ApiKeyGate } from './modules/api-keys/api-key.gate';
import { API_VERSION } from './version';

export interface AppOptions {
  /** SSE heartbeat interval (tests shorten it). */
  heartbeatMs?: number;
  /** Verifiers override (tests use JWKS/public keys). */
  verifiers?: AuthVerifiers;
  /**
   * A server already listening on the port (the entry point's waiting server): the app takes its
   * requests over instead of listening itself (created with the same httpServerOptions).
   */
  adopt?: { server: http.Server; handOver(handler: http.RequestListener): void };
}

export interface RunningApp {
  app: express.Express;
  server: http.Server;
  url: string;
  /** Open server-sent-event streams, per client address and in total. */
  slots: StreamSlots;
  /** Outstanding graphql-sse reservations. */
  reservations: SseReservations;
  /** Answers written from the answer cache before Express (src/http/fast-path.ts). */
  fastPath: FastPath;
  /** Live graphql-sse operations per stream (single-connection mode). */
  sseOperations: SseOperations;
  /** What the answer cache holds (src/graphql/pipeline/answer-cache.ts). */
  answerCache: () => { bytes: number; entries: number };
  /** Graceful stop: refuse new requests, end streams, drain, then close. */
  stop(): Promise<void>;
}

/** The route a request is counted and logged under (its template, or the GraphQL path). */
function routeOf(req: Request, res: Response): string {
  return String(res.locals.route ?? (req.path.startsWith('/graphql') ? req.baseUrl + req.path : 'unmatched'));
}

/** Builds the express app: /graphql, /graphql/stream, REST surfaces, OpenAPI, health and metrics. */
export async function createApp(services: AppServices, opts: AppOptions = {}) {
  const { config, logger, metrics } = services;
  const schema = await getSchema();
  const verifiers = opts.verifiers ?? {
    user: createJwtVerifier(config.auth.user, 'user'),
    wallet: createJwtVerifier(config.auth.wallet, 'wallet-auth'),
  };
  const deps: ContextDeps = { services, verifiers, tokens: config.tokens };
  // Every operation of /graphql, /graphql/stream and the REST routes runs through one pipeline: the
  // limits and cost, one answer cache, compiled execution (src/graphql/pipeline/operation-pipeline.ts).
  const pipeline = new OperationPipeline<GraphQLContext>({
    schema,
    limits: config.graphql,
    resolvedFields: await getResolvedFields(),
    answers: { ttlMs: config.readCaches.ttlMs, maxBytes: config.readCaches.answerMaxBytes, now: services.now },
  });
  // The answer cache is cleared by the topics its answers depend on: the public reads' and the cached routes'.
  const cacheTopics = new Set([
    ...pipeline.publicReadTopics(),
    ...ROUTES.flatMap((r) => (r.cache ? [r.cache.invalidatedBy] : [])),
  ]);
  for (const topic of cacheTopics) await services.infra.pubsub.subscribe(topic, () => pipeline.answers.invalidate());
  const context = (req: Request) =>
    contextFromHttp(deps, req, String(req.res?.locals.requestId ?? requestIdFrom(req.headers)));
  const streams = new Set<Response>();
  // Answers in the answer cache are written again before Express (src/http/fast-path.ts).
  const fastPath = new FastPath(pipeline.answers, metrics, logger, config.http.body);
  const answerCache = () => pipeline.answers.held;

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // conditional requests are a route option of the REST adapter
  // `req.ip` (rate-limit buckets, stream caps) and `req.secure` (HSTS) believe X-Forwarded-For and
  // X-Forwarded-Proto only from the proxies TRUST_PROXY names.
  app.set('trust proxy', config.http.trustProxy);

  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    const requestId = requestIdFrom(req.headers);
    res.locals.requestId = requestId;
    res.setHeader('x-request-id', requestId);
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      recordRequest(metrics, logger, {
        requestId,
        method: req.method,
        route: routeOf(req, res),
        status: res.statusCode,
        seconds,
      });
    });
    next();
  });
  // Security headers on every answer. The content security policy is GraphiQL's own (the only HTML
  // page); Strict-Transport-Security only where the request came over TLS (HSTS=auto) or always (on).
  app.use(helmet({ contentSecurityPolicy: false, strictTransportSecurity: false }));
  if (config.http.hsts !== 'off') {
    const hsts = helmet.strictTransportSecurity({ maxAge: config.http.hstsMaxAgeSeconds, includeSubDomains: false });
    app.use((req, res, next) => (config.http.hsts === 'on' || req.secure ? hsts(req, res, next) : next()));
  }
  // CORS for CORS_ORIGINS, before the key gate so a preflight needs no credential (src/http/cors.ts).
  const corsHandler = corsMiddleware(config.browser.corsOrigins);
  if (corsHandler) app.use(corsHandler);
  // The market-data surface's one gate (key, plan limit, usage, rate-limit headers) runs before
  // anything else there, so every answer of the surface carries the headers, body errors included.
  app.use('/market-data', apiKeyGateMiddleware(services.get(ApiKeyGate), routeTemplateMatcher(ROUTES, 'market-data')));
  // The one reader of bodies (src/http/body-gate.ts): size (413) before anything is read, UTF-8 JSON
  // only (415), nesting bounded before parsing; the raw bytes are kept (signed webhooks check them).
  // A body it refuses is answered by the handler, after the credential check a REST route makes first.
  app.use(bodyGate(config.http.body));
  app.use('/graphql', graphqlInputGate(config.http.body.maxDepth));

  const slots = new StreamSlots(config.streams, (reason) => metrics.streamRefused(reason));
  const streamHooks: StreamHooks = {
    admit: (res, address) => slots.admit(res, address),
    acquire: (address, what) => slots.acquire(address, what),
    maxBufferBytes: config.streams.maxBufferBytes,
    opened: (kind) => metrics.streamOpened(kind),
    closed: (kind) => metrics.streamClosed(kind),
    dropped: (kind, unsentBytes) => {
      metrics.streamDropped(kind);
      logger.warn({ kind, unsentBytes, limit: config.streams.maxBufferBytes }, 'stream client dropped: not reading');
    },
  };
  const track = (res: Response) => {
    streams.add(res);
    res.on('close', () => streams.delete(res));
  };
  const sse = createGraphqlSseHandler({
    pipeline,
    logger,
    context,
    track,
    streams: streamHooks,
    reservations: {
      perAddress: config.streams.reservationsPerAddress,
      total: config.streams.reservationsTotal,
      ttlMs: config.streams.reservationTtlMs,
    },
    operationsPerStream: config.streams.maxOperationsPerStream,
    refused: () => metrics.streamRefused('reservation'),
    operationRefused: () => metrics.streamRefused('operations'),
  });
  app.use('/graphql/stream', (req, res) => {
    res.locals.route = '/graphql/stream';
    void sse.handle(req, res);
  });
  if (config.graphql.graphiql) {
    app.use('/graphql', graphiqlRouter({ endpoint: '/graphql', subscriptionsEndpoint: '/graphql/stream' }));
  }
  const apollo = await createApolloMiddleware({ pipeline, logger, context: async (req) => context(req) });
  app.use('/graphql', (req, res, next) => {
    res.locals.route = '/graphql';
    apollo.middleware(req, res, next);
  });

  const openapi = buildOpenApi(ROUTES, schema, API_VERSION);
  app.get('/openapi.json', (_req, res) => {
    res.locals.route = '/openapi.json';
    res.json(openapi);
  });
  // Readiness (liveness is /health): 503 with the reasons while the database or Redis does not
  // answer, migrations or start-up work are not done, or the process drains; 200 otherwise.
  app.get('/health/ready', async (_req, res) => {
    res.locals.route = '/health/ready';
    const report = await services.readiness.check();
    res.setHeader('cache-control', 'no-store');
    res.status(report.status === 'ready' ? 200 : 503).json(report);
  });
  if (config.browser.apiDocs) app.use('/docs', apiDocsRouter({ specUrl: '/openapi.json' }));
  app.get('/metrics', async (req, res) => {
    res.locals.route = '/metrics';
    const token = config.http.metricsToken;
    if (token !== undefined) {
      const presented = /^Bearer (.+)$/i.exec(req.get('authorization') ?? '')?.[1];
      if (!safeEqual(presented, token)) {
        res.setHeader('www-authenticate', 'Bearer realm="metrics"');
        return sendError(res, 'unauthorized', 'missing or invalid metrics credential');
      }
    }
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  const restDeps: RestRouterDeps<GraphQLContext> = {
    schema,
    logger,
    context,
    authenticate: (auth, ctx) => authenticateRoute(auth, ctx.auth),
    operations: {
      answer: (op, view, cached) => pipeline.executeView(op, view, cached),
      openStream: (op) => pipeline.openStream(op),
      executeEvent: (op) => pipeline.executeEvent(op),
    },
    etagMaxAgeSeconds: config.etagMaxAgeSeconds,
    heartbeatMs: opts.heartbeatMs,
    streams: streamHooks,
    answerWritten: (req, res, route, cached) =>
      fastPath.rememberRestAnswer(req, res, route.path, cached as AnswerEntry, route.id),
  };
  const trading = createRestRouter(ROUTES, 'trading', restDeps);
  app.use((req, res, next) => {
    if (req.headers.accept?.includes('text/event-stream')) {
      streams.add(res);
      res.on('close', () => streams.delete(res));
    }
    next();
  });
  app.use('/market-data', createRestRouter(ROUTES, 'market-data', restDeps));
  app.use(trading);

  app.use((req, res) => sendError(res, 'not_found', `no route for ${req.method} ${req.path}`));
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const e = err as { status?: number };
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
      return sendError(res, 'bad_request', 'malformed request');
    }
    // A known error (the database unreachable: 503 with Retry-After) answers with its code.
    const known = toAppError(err);
    if (known && known.code !== 'internal') return sendError(res, known.code, known.message, known.details);
    logger.error({ err, path: req.path }, 'unhandled error');
    return sendError(res, 'internal', 'internal error');
  });

  const stopGraphql = async () => {
    sse.close();
    await apollo.stop();
  };
  return {
    app,
    fastPath,
    streams,
    slots,
    reservations: sse.reservations,
    sseOperations: sse.operations,
    answerCache,
    stopGraphql,
  };
}

/** Creates the app and listens on the configured (or given) port. */
export async function startServer(
  services: AppServices,
  listen: { port: number; host: string },
  opts: AppOptions = {},
): Promise<RunningApp> {
  const { app, fastPath, streams, slots, reservations, sseOperations, answerCache, stopGraphql } = await createApp(
    services,
    opts,
  );
  const handler: http.RequestListener = (req, res) => {
    fastPath.handle(req, res, () => void app(req, res));
  };
  const server = opts.adopt?.server ?? createHttpServer(httpServerOptions(services.config), handler);
  // Its requests and responses are made with the app's prototypes, which Express would otherwise set on each.
  adoptServerPrototypes(server, app, { request: express.request, response: express.response });
  server.keepAliveTimeout = services.config.http.keepAliveTimeoutMs;
  if (opts.adopt) opts.adopt.handOver(handler);
  else {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(listen.port, listen.host, () => resolve());
    });
  }
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      services.markShuttingDown();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const res of streams) res.end();
      server.closeIdleConnections();
      const grace = setTimeout(() => server.closeAllConnections(), services.config.shutdownGraceMs);
      grace.unref();
      await closed;
      clearTimeout(grace);
      await stopGraphql();
    })();
    return stopping;
  };
  return {
    app,
    server,
    url: `http://${host}:${addr.port}`,
    slots,
    reservations,
    fastPath,
    sseOperations,
    answerCache,
    stop,
  };
}
