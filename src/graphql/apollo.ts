import { ApolloServer, type ApolloServerOptionsWithGateway } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import type { RequestHandler } from 'express';
import { GraphQLError } from 'graphql';
import type { GraphQLContext } from '../context';
import type { Logger } from '../http/logger';
import type { GraphqlExecutor } from './executor';
import { createFormatError } from './format-error';
import type { GraphqlLimits } from './limits';
import { unavailableRetryAfter } from './unavailable';

/**
 * Apollo Server on Express. Its own landing page loads from a CDN, so it is
 * disabled; the offline GraphiQL router answers browsers instead. CSRF
 * prevention stays on: simple GETs need a preflight header or a JSON type.
 */
export async function createApolloMiddleware(opts: {
  executor: GraphqlExecutor;
  logger: Logger;
  context: (req: Parameters<RequestHandler>[0]) => Promise<GraphQLContext>;
  limits: GraphqlLimits;
}): Promise<{
  middleware: RequestHandler;
  stop: () => Promise<void>;
  /**
   * The body sent for the cached public read a request's context was answered with (if it was),
   * and whether the executor still holds that answer.
   */
  publicAnswerOf: (context: GraphQLContext) => { body: string; isCurrent: () => boolean } | undefined;
}> {
  // Keyed by the request's loaders: Apollo hands plugins a shallow copy of the context, which shares them.
  const publicAnswers = new WeakMap<GraphQLContext['loaders'], object>();
  const server = new ApolloServer<GraphQLContext>({
    // Apollo parses, validates, runs the plugins and answers; the shared executor executes (executor.ts).
    gateway: compiledExecution(opts.executor),
    introspection: opts.limits.settings.introspection,
    // The limits (limits.ts): tokens at parsing, depth, aliases and directives at validation (a 400),
    // and the cost once the operation and its variables are known, still before execution.
    parseOptions: opts.limits.parseOptions,
    validationRules: [...opts.limits.limitRules],
    csrfPrevention: true,
    // The process owns shutdown (main.ts): Apollo must not race it on SIGTERM.
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    // A cached public read's data is serialized once and shared (executor.ts); the rest as Apollo would.
    stringifyResult: (value) => {
      const shared =
        value.errors === undefined && value.extensions === undefined
          ? opts.executor.serializedData(value.data)
          : undefined;
      return shared === undefined ? `${JSON.stringify(value)}\n` : sharedBody(shared);
    },
    formatError: createFormatError((err) => opts.logger.error({ err }, 'graphql resolver failed')),
    // Cache-control hints would hook every field resolution for nothing: HTTP
    // caching is the REST adapter's (ETags). No Apollo Studio reporting either.
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginUsageReportingDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      {
        async requestDidStart() {
          return {
            async didResolveOperation({ document, request, operationName, contextValue }) {
              const cost = opts.limits.checkCost(document, request.variables, operationName ?? undefined);
              contextValue.apiKey.charge(cost);
            },
            async willSendResponse({ response, contextValue }) {
              // Nothing but `unavailable` errors (the database unreachable): 503 with Retry-After.
              const retryAfter =
                response.body.kind === 'single' ? unavailableRetryAfter(response.body.singleResult) : undefined;
              if (retryAfter !== undefined) {
                response.http.status = 503;
                response.http.headers.set('retry-after', String(retryAfter));
              }
              // Sent as `{"data":<shared JSON>}` by stringifyResult above: the server may repeat it.
              if (response.body.kind !== 'single' || response.http.status !== undefined) return;
              const { data, errors, extensions } = response.body.singleResult;
              if (errors === undefined && extensions === undefined && opts.executor.holdsData(data)) {
                publicAnswers.set(contextValue.loaders, data as object);
              }
            },
          };
        },
      },
    ],
  });
  await server.start();
  const middleware = expressMiddleware(server, { context: ({ req }) => opts.context(req) });
  const publicAnswerOf = (context: GraphQLContext) => {
    const data = publicAnswers.get(context.loaders);
    const shared = data && opts.executor.serializedData(data);
    return shared === undefined
      ? undefined
      : { body: sharedBody(shared), isCurrent: () => opts.executor.holdsData(data) };
  };
  return { middleware, stop: () => server.stop(), publicAnswerOf };
}

/** The body of an answer whose data is a cached public read's shared JSON (as stringifyResult writes it). */
function sharedBody(sharedData: string): string {
  return `{"data":${sharedData}}\n`;
}

type Gateway = ApolloServerOptionsWithGateway<GraphQLContext>['gateway'];

/** graphql-js's error for a request whose operation name picks no operation of its document. */
function unresolvedOperation(name: string | null | undefined): GraphQLError {
  return new GraphQLError(
    name == null
      ? 'Must provide operation name if query contains multiple operations.'
      : `Unknown operation named "${name}".`,
  );
}

/**
 * Apollo's hook for another executor is its gateway interface: a gateway that
 * serves one static schema and executes through the compiled executor.
 */
function compiledExecution(executor: GraphqlExecutor): Gateway {
  let announce: Parameters<Gateway['onSchemaLoadOrUpdate']>[0] | undefined;
  return {
    onSchemaLoadOrUpdate(callback) {
      announce = callback;
      return () => {
        announce = undefined;
      };
    },
    async load() {
      announce?.({ apiSchema: executor.schema, coreSupergraphSdl: '' });
      return {
        executor: async (rc) =>
          // Apollo resolved no operation (an operation name the document does not have, or none of
          // several): graphql-js's error, which Apollo answers with a 400. Executing would run the
          // document's only operation under a name it does not have.
          rc.operation === undefined
            ? { errors: [unresolvedOperation(rc.request.operationName)] }
            : executor.execute({
                document: rc.document,
                variableValues: rc.request.variables,
                contextValue: rc.context,
                operationName: rc.operationName,
              }),
      };
    },
    async stop() {},
  };
}
