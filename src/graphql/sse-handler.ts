import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { GraphQLError } from 'graphql';
import { createHandler, type Request as SseRequest, type Response as SseResponse } from 'graphql-sse';
import type { GraphQLContext } from '../context';
import { AppError } from '../errors/app-error';
import { classifyGraphQLError } from '../errors/classify-error';
import { toAppError } from '../errors/normalize-error';
import type { Logger } from '../http/logger';
import { sendError } from '../http/send-error';
import { BackpressureWriter } from '../http/sse';
import { clientAddressOf, STREAM_RETRY_AFTER_SECONDS, type StreamHooks } from '../http/stream-limits';
import type { OperationPipeline } from './pipeline/operation-pipeline';
import { SseOperations, type SseOperationClaim } from './sse-operations';

/** graphql-sse's header and query parameter of a reservation token (its protocol). */
const TOKEN_HEADER = 'x-graphql-event-stream-token';
const TOKEN_QUERY = 'token';

export interface ReservationLimits {
  perAddress: number;
  total: number;
  ttlMs: number;
}

/**
 * Outstanding graphql-sse reservations (single-connection mode: `PUT` reserves a stream, which a
 * later event-stream request opens): capped per client address and in total, and forgotten when
 * not opened within the TTL. A reservation stops counting once its stream opens (the stream caps
 * take over). Hand-written rather than an LRU cache: a full map must refuse new reservations, not
 * evict other clients' ones, and it counts per address.
 */
export class SseReservations {
  private readonly pending = new Map<string, { address: string; expiresAt: number }>();
  private readonly byAddress = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: ReservationLimits,
    /** Called for each reservation that expired unused, to free what graphql-sse holds for it. */
    private readonly onExpire: (token: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(250, Math.min(limits.ttlMs / 2, 10_000)));
    this.sweeper.unref();
  }

  /** A new token for `address`, or undefined when its or the process's cap is reached. */
  issue(address: string): string | undefined {
    this.sweep();
    const mine = this.byAddress.get(address) ?? 0;
    if (mine >= this.limits.perAddress || this.pending.size >= this.limits.total) return undefined;
    const token = randomUUID();
    this.pending.set(token, { address, expiresAt: this.now() + this.limits.ttlMs });
    this.byAddress.set(address, mine + 1);
    return token;
  }

  /** Whether `token` is outstanding (issued, not expired, not yet opened). */
  has(token: string): boolean {
    const r = this.pending.get(token);
    return r !== undefined && r.expiresAt > this.now();
  }

  /** The token's stream opened: it no longer counts as outstanding. */
  opened(token: string): void {
    this.forget(token);
  }

  /** Outstanding reservations of one address, or in all. */
  count(address?: string): number {
    return address === undefined ? this.pending.size : (this.byAddress.get(address) ?? 0);
  }

  /** Drops every expired reservation (also run on a timer). */
  sweep(): void {
    const now = this.now();
    for (const [token, r] of this.pending) {
      if (r.expiresAt > now) continue;
      this.forget(token);
      this.onExpire(token);
    }
  }

  /** Stops the sweeper and drops every outstanding reservation as if it expired (the server stops). */
  close(): void {
    clearInterval(this.sweeper);
    for (const token of [...this.pending.keys()]) {
      this.forget(token);
      this.onExpire(token);
    }
  }

  private forget(token: string): void {
    const r = this.pending.get(token);
    if (!r) return;
    this.pending.delete(token);
    const left = (this.byAddress.get(r.address) ?? 1) - 1;
    if (left > 0) this.byAddress.set(r.address, left);
    else this.byAddress.delete(r.address);
  }
}

/** The request context graphql-sse carries: the express pair, or the handler's own cleanup of a token. */
type SseRequestContext = { res: Response } | { expire: string };

function tokenOf(req: SseRequest<Request | undefined, SseRequestContext>): string | undefined {
  const header = req.headers.get(TOKEN_HEADER);
  if (header) return header;
  return new URL(req.url, 'http://localhost/').searchParams.get(TOKEN_QUERY) ?? undefined;
}

function tooMany(message: string): SseResponse {
  return [
    JSON.stringify({ error: 'rate_limited', message }),
    {
      status: 429,
      statusText: 'Too Many Requests',
      headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': String(STREAM_RETRY_AFTER_SECONDS) },
    },
  ];
}
/**
 * graphql-sse at /graphql/stream (subscriptions over server-sent events), the stream transport
 * of the operation pipeline (pipeline/operation-pipeline.ts), with the same context factory and
 * error masking as /graphql. graphql-sse's hooks hand the pipeline its phases: `onSubscribe`
 * parses and admits (limits and cost), `validate` validates, `execute` runs a query or mutation
 * (answer cache, compiled execution) and `subscribe` a subscription. Reservations are
 * issued with `crypto.randomUUID`, capped and expired ({@link SseReservations});
 * event-stream requests take a stream slot; the operations of one stream are
 * capped and those beyond its first take slots too ({@link SseOperations});
 * writes honour backpressure and a client that falls too far behind is dropped.
 */
export function createGraphqlSseHandler(opts: {
  pipeline: OperationPipeline<GraphQLContext>;
  logger: Logger;
  context: (req: Request) => GraphQLContext;
  track: (res: Response) => void;
  streams: StreamHooks;
  reservations: ReservationLimits;
  /** Live operations one stream (single-connection mode) carries at most. */
  operationsPerStream: number;
  /** A reservation refused (caps reached). */
  refused?: () => void;
  /** An operation refused for the per-stream cap. */
  operationRefused?: () => void;
}): {
  handle: (req: Request, res: Response) => Promise<void>;
  reservations: SseReservations;
  operations: SseOperations;
  close(): void;
} {
  const { pipeline } = opts;
  const operations = new SseOperations(
    opts.operationsPerStream,
    (address) => opts.streams.acquire(address, 'open streams and stream operations'),
    opts.operationRefused,
  );
  /** The place each operation request (single-connection mode) took on its stream. */
  const claims = new WeakMap<Request, SseOperationClaim>();
  const claimOf = (req: SseRequest<Request | undefined, SseRequestContext>) => req.raw && claims.get(req.raw);
  const handler = createHandler<Request | undefined, SseRequestContext, GraphQLContext>({
    schema: pipeline.schema,
    authenticate: (req) => {
      if ('expire' in req.context) return req.context.expire;
      if (req.method === 'PUT') {
        // A new reservation for every PUT: a token the client names is never taken as its own.
        const token = reservations.issue(clientAddressOf(req.raw!));
        if (token !== undefined) return token;
        opts.refused?.();
        return tooMany(
          `too many outstanding stream reservations (at most ${opts.reservations.perAddress} per address); ` +
            `retry in ${STREAM_RETRY_AFTER_SECONDS}s`,
        );
      }
      // Other requests name their reservation; without one, an event stream is a distinct connection.
      const token = tokenOf(req);
      // A request that registers an operation on a stream (graphql-sse's test: not an event stream)
      // takes its place there first; given back when it is not accepted (202) or once it ends.
      const registers = req.method === 'POST' || req.method === 'GET';
      if (token !== undefined && registers && (req.headers.get('accept') || '*/*') !== 'text/event-stream') {
        try {
          claims.set(req.raw!, operations.claim(token, clientAddressOf(req.raw!)));
        } catch (err) {
          if (err instanceof AppError) return tooMany(err.message);
          throw err;
        }
      }
      return token;
    },
    context: (req) => opts.context(req.raw!),
    // Validation as on /graphql: graphql-js's rules and the limits (a 400 in every transport mode).
    validate: (_schema, document) => pipeline.validate(document),
    // A query or mutation runs as on /graphql (answer cache, compiled execution).
    execute: (args) =>
      pipeline.execute({
        document: args.document,
        operationName: args.operationName,
        variables: args.variableValues,
        context: () => args.contextValue,
      }),
    // An event that is an `unavailable` error (the database unreachable) is sent, then the operation ends.
    subscribe: (args) => pipeline.subscribe(args),
    // An operation whose stream ended while it was set up would run with no stream: stop it.
    onOperation: async (_ctx, req, _args, result) => {
      if (!claimOf(req)?.released) return;
      if (result && typeof result === 'object' && 'return' in result) await result.return?.(undefined);
      return { errors: [new GraphQLError('the stream ended', { extensions: { code: 'bad_request' } })] };
    },
    onComplete: (_ctx, req) => {
      const claim = claimOf(req);
      if (claim) operations.release(claim);
    },
    onSubscribe: (req, params) => {
      // Parsed and admitted (limits and cost) before anything runs: over a limit is a 400.
      let document;
      let cost: number;
      const variables = params.variables ?? undefined;
      try {
        document = pipeline.parse(params.query);
        cost = pipeline.admit({ document, variables, operationName: params.operationName });
      } catch (err) {
        if (err instanceof GraphQLError) return refusal(classifyGraphQLError(err).message);
        throw err;
      }
      const contextValue = opts.context(req.raw!);
      pipeline.charge(contextValue, cost);
      return {
        schema: pipeline.schema,
        document,
        variableValues: variables,
        operationName: params.operationName ?? undefined,
        contextValue,
      };
    },
    onNext: (_ctx, _req, result) => {
      if (!result.errors?.length) return result;
      return {
        ...result,
        errors: result.errors.map((e) => {
          const c = classifyGraphQLError(e);
          if (c.unexpected !== undefined) opts.logger.error({ err: c.unexpected }, 'subscription failed');
          return new GraphQLError(c.message, { path: e.path, extensions: { code: c.code } });
        }),
      };
    },
  });

  // graphql-sse keeps a reserved stream until it is opened and closed. One that expired unused is
  // opened here, with no client, and returned at once: the library then forgets it and ends its
  // operations.
  const expire = (token: string) => {
    void (async () => {
      const [body] = await handler({
        method: 'GET',
        url: '/graphql/stream',
        headers: { get: (key) => (key === 'accept' ? 'text/event-stream' : key === TOKEN_HEADER ? token : undefined) },
        body: null,
        raw: undefined,
        context: { expire: token },
      });
      if (body && typeof body !== 'string') await body.return(undefined);
    })()
      .catch((err: unknown) => opts.logger.error({ err }, 'graphql-sse reservation cleanup failed'))
      .finally(() => operations.endStream(token));
  };
  const reservations = new SseReservations(opts.reservations, expire);

  // The express binding of graphql-sse, written here (instead of graphql-sse/lib/use/express) so
  // that its messages go through a BackpressureWriter: the library queues every message of a
  // stream without bound until it is written.
  const handle = async (req: Request, res: Response): Promise<void> => {
    const isStream = req.headers.accept?.includes('text/event-stream') === true;
    if (isStream) {
      opts.streams.admit(res, clientAddressOf(req));
      opts.track(res);
    }
    const [body, init] = await handler({
      method: req.method,
      url: req.url,
      headers: {
        get(key) {
          const header = req.headers[key];
          return Array.isArray(header) ? header.join('\n') : header;
        },
      },
      // The body gate (src/http/body-gate.ts) read every body, bounded, before this: what it parsed,
      // or nothing (a refused body was answered at /graphql). The request is never read here.
      body: (req.body ?? null) as Record<string, unknown> | null,
      raw: req,
      context: { res },
    });
    res.writeHead(init.status, init.statusText, init.headers);
    if (!body || typeof body === 'string') {
      res.end(body ?? undefined);
      return;
    }
    const token = req.get(TOKEN_HEADER) ?? new URL(req.url, 'http://localhost/').searchParams.get(TOKEN_QUERY);
    if (token) reservations.opened(token);
    opts.streams.opened('graphql-sse');
    const writer = new BackpressureWriter(res, opts.streams.maxBufferBytes, (unsent) =>
      opts.streams.dropped('graphql-sse', unsent),
    );
    const stop = () => void body.return(undefined);
    res.once('close', stop);
    try {
      for await (const chunk of body) {
        if (!writer.write(chunk)) break;
      }
    } finally {
      res.off('close', stop);
      if (token) operations.endStream(token);
      opts.streams.closed('graphql-sse');
      writer.end();
    }
  };

  return {
    handle: async (req, res) => {
      try {
        await handle(req, res);
      } catch (err) {
        const app = toAppError(err);
        if (app) return sendError(res, app.code, app.message, app.details);
        opts.logger.error({ err }, 'graphql-sse handler failed');
        if (!res.headersSent) sendError(res, 'internal', 'internal error');
        else res.end();
      } finally {
        // An operation request not accepted (202) registered nothing: its place goes back.
        const claim = claims.get(req);
        if (claim && res.statusCode !== 202) operations.release(claim);
      }
    },
    reservations,
    operations,
    close: () => {
      reservations.close();
      operations.close();
    },
  };
}

/** A request refused before execution: 400 with a GraphQL error body whose code is `bad_request`. */
function refusal(message: string): [string, { status: 400; statusText: string; headers: Record<string, string> }] {
  return [
    JSON.stringify({ errors: [{ message, extensions: { code: 'bad_request' } }] }),
    { status: 400, statusText: 'Bad Request', headers: { 'content-type': 'application/json; charset=utf-8' } },
  ];
}
