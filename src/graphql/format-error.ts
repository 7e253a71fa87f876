import type { GraphQLFormattedError } from 'graphql';
import { classifyGraphQLError } from '../errors/classify-error';
import { limitMessage } from './limits';

/** Apollo's formatError: the same code table in `extensions.code`, internals masked. */
export function createFormatError(log: (err: unknown) => void) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const c = classifyGraphQLError(error);
    if (c.unexpected !== undefined) log(c.unexpected);
    return {
      // graphql-js's token bound speaks for itself: its message is made to name the limit.
      message: c.code === 'bad_request' ? limitMessage(c.message) : c.message,
      ...(formatted.locations && { locations: formatted.locations }),
      ...(formatted.path && { path: formatted.path }),
      extensions: { code: c.code, ...(c.details ?? {}) },
    };
  };
}
