import type { Request, Response } from 'express';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/express';
import type { GraphQLContext } from '../context';
import { classifyGraphQLError } from '../errors/classify-error';
import type { Logger } from '../http/logger';
import type { GraphqlLimits } from './limits';

/**
 * graphql-sse at /graphql/stream (subscriptions over server-sent events), with
 * the same context factory and error masking as /graphql.
 */
export function createGraphqlSseHandler(opts: {
  schema: GraphQLSchema;
  logger: Logger;
  context: (req: Request) => GraphQLContext;
  track: (res: Response) => void;
  limits: GraphqlLimits;
}): (req: Request, res: Response) => Promise<void> {
  const { limits } = opts;
  const handler = createHandler<GraphQLContext>({
    schema: opts.schema,
    context: (req) => opts.context(req.raw),
    // The limits of /graphql (limits.ts), before anything runs: over one is a 400 in every transport
    // mode. Other validation errors are graphql-sse's to answer, under the same rules as /graphql.
    validate: (_schema, document) => limits.validate(document),
    onSubscribe: (req, params) => {
      const refused = (err: GraphQLError) => refusal(classifyGraphQLError(err).message);
      let document;
      try {
        document = limits.parse(params.query);
      } catch (err) {
        if (err instanceof GraphQLError) return refused(err);
        throw err;
      }
      const overLimit = limits.checkDocument(document);
      if (overLimit) return refused(overLimit);
      const variables = params.variables ?? undefined;
      let cost: number;
      try {
        cost = limits.checkCost(document, variables, params.operationName ?? undefined);
      } catch (err) {
        if (err instanceof GraphQLError) return refused(err);
        throw err;
      }
      const contextValue = opts.context(req.raw);
      contextValue.apiKey.charge(cost);
      return {
        schema: opts.schema,
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
  return async (req, res) => {
    opts.track(res);
    try {
      await handler(req, res);
    } catch (err) {
      opts.logger.error({ err }, 'graphql-sse handler failed');
      if (!res.headersSent) res.status(500).json({ error: 'internal', message: 'internal error' });
      else res.end();
    }
  };
}

/** A request refused before execution: 400 with a GraphQL error body whose code is `bad_request`. */
function refusal(message: string): [string, { status: 400; statusText: string; headers: Record<string, string> }] {
  return [
    JSON.stringify({ errors: [{ message, extensions: { code: 'bad_request' } }] }),
    { status: 400, statusText: 'Bad Request', headers: { 'content-type': 'application/json; charset=utf-8' } },
  ];
}
