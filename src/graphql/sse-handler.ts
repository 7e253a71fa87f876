import type { Request, Response } from 'express';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/express';
import type { GraphQLContext } from '../context';
import { classifyGraphQLError } from '../errors/classify-error';
import type { Logger } from '../http/logger';

/**
 * graphql-sse at /graphql/stream (subscriptions over server-sent events), with
 * the same context factory and error masking as /graphql.
 */
export function createGraphqlSseHandler(opts: {
  schema: GraphQLSchema;
  logger: Logger;
  context: (req: Request) => GraphQLContext;
  track: (res: Response) => void;
}): (req: Request, res: Response) => Promise<void> {
  const handler = createHandler<GraphQLContext>({
    schema: opts.schema,
    context: (req) => opts.context(req.raw),
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
