import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import type { RequestHandler } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { GraphQLContext } from '../context';
import type { Logger } from '../http/logger';
import { createFormatError } from './format-error';
import type { GraphqlLimits } from './limits';

/**
 * Apollo Server on Express. Its own landing page loads from a CDN, so it is
 * disabled; the offline GraphiQL router answers browsers instead. CSRF
 * prevention stays on: simple GETs need a preflight header or a JSON type.
 */
export async function createApolloMiddleware(opts: {
  schema: GraphQLSchema;
  logger: Logger;
  context: (req: Parameters<RequestHandler>[0]) => Promise<GraphQLContext>;
  limits: GraphqlLimits;
}): Promise<{ middleware: RequestHandler; stop: () => Promise<void> }> {
  const server = new ApolloServer<GraphQLContext>({
    schema: opts.schema,
    introspection: opts.limits.settings.introspection,
    // The limits (limits.ts): tokens at parsing, depth, aliases and directives at validation (a 400),
    // and the cost once the operation and its variables are known, still before execution.
    parseOptions: opts.limits.parseOptions,
    validationRules: [...opts.limits.limitRules],
    csrfPrevention: true,
    // The process owns shutdown (main.ts): Apollo must not race it on SIGTERM.
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
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
          };
        },
      },
    ],
  });
  await server.start();
  const middleware = expressMiddleware(server, { context: ({ req }) => opts.context(req) });
  return { middleware, stop: () => server.stop() };
}
