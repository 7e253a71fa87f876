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
import { createFormatError } from './format-error';
import type { OperationPipeline } from './pipeline/operation-pipeline';
import { unavailableRetryAfter } from './unavailable';

/**
 * Apollo Server on Express, the `/graphql` transport of the operation pipeline
 * (pipeline/operation-pipeline.ts). Apollo parses and validates with the pipeline's options,
 * and hands it the rest: the limits and cost (a plugin, once the operation and its variables are
 * known), the answer cache and compiled execution (Apollo's gateway interface, its one hook for
 * another executor: a deliberate use of an interface meant for federation, see
 * docs/architecture.md), and the body (`stringifyResult`). Its own landing page loads from a CDN,
 * so it is disabled; the offline GraphiQL router answers browsers instead. CSRF prevention stays
 * on: simple GETs need a preflight header or a JSON type.
 */
export async function createApolloMiddleware(opts: {
  pipeline: OperationPipeline<GraphQLContext>;
  logger: Logger;
  context: (req: Parameters<RequestHandler>[0]) => Promise<GraphQLContext>;
}): Promise<{ middleware: RequestHandler; stop: () => Promise<void> }> {
  const { pipeline } = opts;
  const server = new ApolloServer<GraphQLContext>({
    gateway: pipelineExecution(pipeline),
    introspection: pipeline.introspection,
    parseOptions: pipeline.parseOptions,
    validationRules: [...pipeline.validationRules],
    csrfPrevention: true,
    // The process owns shutdown (main.ts): Apollo must not race it on SIGTERM.
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    stringifyResult: (value) => pipeline.serialize(value),
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
              const cost = pipeline.admit({ document, variables: request.variables, operationName });
              pipeline.charge(contextValue, cost);
            },
            async willSendResponse({ response }) {
              // Nothing but `unavailable` errors (the database unreachable): 503 with Retry-After.
              const retryAfter =
                response.body.kind === 'single' ? unavailableRetryAfter(response.body.singleResult) : undefined;
              if (retryAfter !== undefined) {
                response.http.status = 503;
                response.http.headers.set('retry-after', String(retryAfter));
              }
            },
          };
        },
      },
    ],
  });
  await server.start();
  const middleware = expressMiddleware(server, { context: ({ req }) => opts.context(req) });
  return { middleware, stop: () => server.stop() };
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
 * Apollo's hook for another executor is its gateway interface: a gateway that serves one static
 * schema and executes through the pipeline (its answer cache, then compiled execution).
 */
function pipelineExecution(pipeline: OperationPipeline<GraphQLContext>): Gateway {
  let announce: Parameters<Gateway['onSchemaLoadOrUpdate']>[0] | undefined;
  return {
    onSchemaLoadOrUpdate(callback) {
      announce = callback;
      return () => {
        announce = undefined;
      };
    },
    async load() {
      announce?.({ apiSchema: pipeline.schema, coreSupergraphSdl: '' });
      return {
        executor: async (rc) =>
          // Apollo resolved no operation (an operation name the document does not have, or none of
          // several): graphql-js's error, which Apollo answers with a 400. Executing would run the
          // document's only operation under a name it does not have.
          rc.operation === undefined
            ? { errors: [unresolvedOperation(rc.request.operationName)] }
            : pipeline.execute({
                document: rc.document,
                // Keyed as the request names it (the pre-Express fast path reads the same key from the body).
                source: rc.source,
                operationName: rc.request.operationName,
                variables: rc.request.variables,
                context: () => rc.context as GraphQLContext,
              }),
      };
    },
    async stop() {},
  };
}
