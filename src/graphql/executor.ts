import { isPromise } from '../http/push-source';
import {
  execute as executeInterpreted,
  GraphQLError,
  getOperationAST,
  OperationTypeNode,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

export interface ExecuteArgs {
  document: DocumentNode;
  variableValues?: Readonly<Record<string, unknown>> | null;
  contextValue: unknown;
  operationName?: string | null;
}

/** Compiled operations a document may hold at most (one per operation name; documents rarely hold more). */
const MAX_OPERATIONS_PER_DOCUMENT = 16;

/**
 * The pipeline's execute phase (pipeline/operation-pipeline.ts): queries and mutations run
 * through graphql-jit, each operation of a document compiled once to a function, so that later
 * executions skip graphql-js's per-field interpretation (argument coercion, type checks, the
 * resolver lookup per field).
 *
 * Documents are keyed by identity: Apollo keeps one parsed document per query text, and the REST
 * routes hold theirs for the process's life. Variables are coerced by graphql-js first, so a bad
 * variable gets graphql-js's own error (the one Apollo answers with 400). A subscription's events
 * run compiled too ({@link executeEvent}); its source stream is graphql-js's. An operation
 * graphql-jit cannot compile falls back to graphql-js.
 */
export class GraphqlExecutor {
  private readonly compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();

  constructor(readonly schema: GraphQLSchema) {}

  /** Executes a query or mutation, compiled. Callers must not mutate the result. */
  execute(args: ExecuteArgs): Promise<ExecutionResult> | ExecutionResult {
    const query = this.compiledFor(args.document, args.operationName ?? undefined);
    if (!query) return this.interpreted(args);
    const variables = args.variableValues ?? {};
    const operation = getOperationAST(args.document, args.operationName);
    if (operation?.variableDefinitions?.length) {
      const coerced = getVariableValues(this.schema, operation.variableDefinitions, variables, { maxErrors: 50 });
      if (coerced.errors) return { errors: coerced.errors };
    }
    const result = query.query(undefined, args.contextValue, variables);
    return isPromise(result) ? result.then(withStandardErrors) : withStandardErrors(result);
  }

  /**
   * A subscription's selection executed on one event of its source stream (`rootValue`), as
   * graphql-js's `subscribe` maps each event: compiled once per document, so a stream's messages
   * skip the per-field interpretation. The variables are the subscription's, coerced when its
   * stream was created.
   */
  executeEvent(args: ExecuteArgs & { rootValue: unknown }): Promise<ExecutionResult> | ExecutionResult {
    const query = this.compiledFor(args.document, args.operationName ?? undefined, true);
    if (!query) return this.interpreted(args, args.rootValue);
    const result = query.query(args.rootValue, args.contextValue, args.variableValues ?? {});
    return isPromise(result) ? result.then(withStandardErrors) : withStandardErrors(result);
  }

  /** graphql-js's execution, for an operation graphql-jit could not compile. */
  private interpreted(args: ExecuteArgs, rootValue?: unknown): Promise<ExecutionResult> | ExecutionResult {
    const { document, variableValues, contextValue, operationName } = args;
    return executeInterpreted({
      schema: this.schema,
      document,
      variableValues,
      contextValue,
      operationName,
      rootValue,
    });
  }

  private compiledFor(
    document: DocumentNode,
    operationName: string | undefined,
    subscription = false,
  ): CompiledQuery | null {
    let byName = this.compiled.get(document);
    if (!byName) {
      byName = new Map();
      this.compiled.set(document, byName);
    }
    const key = operationName ?? '';
    const known = byName.get(key);
    if (known !== undefined) return known;
    const operation = getOperationAST(document, operationName);
    let query: CompiledQuery | null = null;
    if (operation && (operation.operation === OperationTypeNode.SUBSCRIPTION) === subscription) {
      const result = compileQuery(this.schema, document, operationName);
      query = isCompiledQuery(result) ? result : null;
    }
    if (byName.size >= MAX_OPERATIONS_PER_DOCUMENT) byName.clear();
    byName.set(key, query);
    return query;
  }
}

/**
 * graphql-jit's errors imitate graphql-js's but leave `extensions` undefined when
 * the cause has none, which Apollo's error formatting does not survive: each one
 * becomes a graphql-js error with the same message, location, path and cause.
 */
function withStandardErrors(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length) return result;
  const errors = result.errors.map((e) => {
    const standard = new GraphQLError(e.message, {
      path: e.path,
      originalError: e.originalError ?? undefined,
      extensions: e.extensions ?? {},
    });
    if (e.locations) Object.defineProperty(standard, 'locations', { value: e.locations, enumerable: true });
    return standard;
  });
  return { ...result, errors };
}
