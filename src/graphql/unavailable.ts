import { GraphQLError, type ExecutionResult, type GraphQLFormattedError } from 'graphql';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../errors/app-error';
import { classifyGraphQLError } from '../errors/classify-error';

/**
 * How GraphQL answers while a dependency cannot serve it (an `unavailable` error: the database
 * unreachable, every venue down): over HTTP a 503 with `Retry-After` when nothing else could be
 * answered; on a stream, the error as an event and then the end of the operation, for the client
 * to come back later instead of waiting on a stream that cannot deliver.
 */

/**
 * The `Retry-After` (seconds) of an answer that is nothing but `unavailable` errors: every error
 * is one, and no root field holds data. Undefined otherwise (a partial answer stays a 200).
 */
export function unavailableRetryAfter(result: {
  data?: Record<string, unknown> | null;
  errors?: readonly GraphQLFormattedError[];
}): number | undefined {
  const { data, errors } = result;
  if (!errors || errors.length === 0 || !errors.every((e) => e.extensions?.code === 'unavailable')) return undefined;
  if (data && Object.values(data).some((v) => v !== null && v !== undefined)) return undefined;
  const retryAfter = errors[0].extensions?.retryAfter;
  return typeof retryAfter === 'number' ? retryAfter : UNAVAILABLE_RETRY_AFTER_SECONDS;
}

/** Whether an execution result carries an error that classifies as `unavailable`. */
function hasUnavailable(result: ExecutionResult): boolean {
  return result.errors?.some((e) => classifyGraphQLError(e).code === 'unavailable') === true;
}

/**
 * A subscription's results, ending after the first one that carries an `unavailable` error (that
 * one is still delivered: the client's error event); a source that fails with such an error ends
 * the same way, its error delivered as a last result. The source is closed at once. `return()`
 * goes straight to the source, so a client leaving never waits for its next event.
 */
export function endAfterUnavailable<T extends ExecutionResult>(
  source: AsyncIterable<T>,
): AsyncIterableIterator<T> & { return(): Promise<IteratorResult<T>> } {
  const inner = source[Symbol.asyncIterator]();
  let ended = false;
  const done = (): IteratorResult<T> => ({ done: true, value: undefined });
  const end = async (): Promise<IteratorResult<T>> => {
    if (!ended) {
      ended = true;
      await inner.return?.();
    }
    return done();
  };
  return {
    async next() {
      if (ended) return done();
      let step: IteratorResult<T>;
      try {
        step = await inner.next();
      } catch (error) {
        // The source itself failed (it reads the database): said as the last result, not a broken stream.
        if (classifyGraphQLError(error).code !== 'unavailable') throw error;
        ended = true;
        const failed = new GraphQLError('unavailable', { originalError: error as Error });
        return { done: false, value: { errors: [failed] } as unknown as T };
      }
      if (!step.done && hasUnavailable(step.value)) void end();
      return step;
    },
    return: end,
    async throw(error?: unknown) {
      await end();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
