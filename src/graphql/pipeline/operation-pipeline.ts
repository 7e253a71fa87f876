import {
  createSourceEventStream,
  print,
  subscribe as subscribeInterpreted,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FormattedExecutionResult,
  type GraphQLError,
  type GraphQLSchema,
  type ParseOptions,
  type ValidationRule,
} from 'graphql';
import { GraphqlExecutor } from '../executor';
import { GraphqlLimits, type GraphqlLimitSettings } from '../limits';
import { PublicReads } from '../public-reads';
import { endAfterUnavailable } from '../unavailable';
import { AnswerCache, SerializedAnswer, type AnswerEntry, type AnswerView } from './answer-cache';

/** What the pipeline needs of a request's context: the API key an operation's cost is recorded on. */
export interface PipelineContext {
  apiKey: { charge(cost: number): void };
}

/** One operation of one request, as every transport hands it to the pipeline. */
export interface OperationRequest<C> {
  document: DocumentNode;
  operationName?: string | null;
  variables?: Readonly<Record<string, unknown>> | null;
  /** The request's context, made when first needed (an answer from the cache needs none). */
  context: () => C;
  /**
   * The text the document was sent as, which keys its answers; default: the text the pipeline
   * parsed it from, else the printed document (a REST route's).
   */
  source?: string;
}

/** `/graphql`'s body of an answer with data and nothing else: `{"data":…}` and a newline. */
export const GRAPHQL_VIEW: AnswerView = {
  id: 'graphql',
  render: (data) => `{"data":${JSON.stringify(data ?? null)}}\n`,
};

/** A REST route's answer: the bytes of its view and their ETag, and the cached answer they came from, if any. */
export interface ViewAnswer {
  serialized: SerializedAnswer;
  /** The answer cache's entry (the pre-Express fast path may write it again), with its key. */
  cached?: AnswerEntry;
}

export interface PipelineOptions {
  schema: GraphQLSchema;
  limits: GraphqlLimitSettings;
  /** `Type.field` of every field with a resolver of its own (finalize-schema.ts). */
  resolvedFields: ReadonlySet<string>;
  /** The answer cache's bounds (`READ_CACHE_TTL_MS`, `ANSWER_CACHE_MAX_BYTES`). */
  answers: { ttlMs: number; maxBytes: number; now?: () => number };
}

/**
 * The one way a GraphQL operation runs, whatever transport brought it. Its phases, in order:
 *
 * 1. **parse** ({@link parse}): under the token bound (`maxTokens`);
 * 2. **validate** ({@link validate}): graphql-js's rules and the document limits (depth, aliases,
 *    directives; introspection when it is off);
 * 3. **admit** ({@link admit}): the document limits again (remembered per document) and the cost
 *    with the request's variables (`maxCost`), a 400 naming the limit; the cost is recorded on the
 *    request's API key, which a market-data field charges by it;
 * 4. **answer cache** ({@link execute}, {@link executeView}): a public read (`@PublicRead`), or a
 *    REST route declared cached, is answered from the one {@link AnswerCache};
 * 5. **execute**: compiled by graphql-jit ({@link GraphqlExecutor});
 * 6. **serialize** ({@link serialize}, {@link executeView}): the bytes of the answer, made once per
 *    cached answer and view (`/graphql`'s body, a REST route's body and ETag).
 *
 * Where each transport enters: Apollo at `/graphql` parses and validates with the pipeline's
 * {@link parseOptions} and {@link validationRules}, then hands phase 3 (a plugin), phases 4 and 5
 * (its gateway interface) and phase 6 (`stringifyResult`) here (apollo.ts); graphql-sse at
 * `/graphql/stream` hands its parse and phase 3 (`onSubscribe`), its validation and its execution
 * (sse-handler.ts); the REST adapter's routes hold documents validated at start and enter at
 * phase 3 ({@link executeView}, {@link openStream}). Subscriptions leave after phase 3: their
 * source stream is graphql-js's, their events are executed compiled ({@link executeEvent}).
 */
export class OperationPipeline<C extends PipelineContext> {
  /** Apollo's parse phase: the token bound. */
  readonly parseOptions: ParseOptions;
  /** Apollo's validation phase: the limit rules (Apollo adds graphql-js's and its introspection rule). */
  readonly validationRules: readonly ValidationRule[];
  readonly introspection: boolean;
  readonly answers: AnswerCache;
  private readonly limits: GraphqlLimits;
  private readonly reads: PublicReads;
  private readonly executor: GraphqlExecutor;
  /** The text each document was parsed from here, or printed from (the answer cache's key). */
  private readonly sources = new WeakMap<DocumentNode, string>();

  constructor(readonly options: PipelineOptions) {
    const { schema } = options;
    this.limits = new GraphqlLimits(schema, options.limits);
    this.reads = new PublicReads(schema, options.resolvedFields);
    this.executor = new GraphqlExecutor(schema);
    this.answers = new AnswerCache(options.answers);
    this.parseOptions = this.limits.parseOptions;
    this.validationRules = this.limits.limitRules;
    this.introspection = options.limits.introspection;
  }

  get schema(): GraphQLSchema {
    return this.options.schema;
  }

  /** The topics the public reads are invalidated by: each publication clears the answer cache. */
  publicReadTopics(): string[] {
    return this.reads.topics();
  }

  /** Phase 1: the document of `source`, under the token bound (a syntax error or the bound: a 400). */
  parse(source: string): DocumentNode {
    const document = this.limits.parse(source);
    this.sources.set(document, source);
    return document;
  }

  /** Phase 2: every error of graphql-js's rules and the limit rules. */
  validate(document: DocumentNode): readonly GraphQLError[] {
    return this.limits.validate(document);
  }

  /**
   * Phase 3: the document limits and the cost with these variables, before anything runs: throws
   * the 400 naming the limit. Returns the cost, for {@link charge}.
   */
  admit(op: Omit<OperationRequest<C>, 'context'>): number {
    const overLimit = this.limits.checkDocument(op.document);
    if (overLimit) throw overLimit;
    return this.limits.checkCost(op.document, op.variables ?? undefined, op.operationName ?? undefined);
  }

  /** Records an admitted operation's cost on the request's API key (a market-data field charges it). */
  charge(context: C, cost: number): void {
    context.apiKey.charge(cost);
  }

  /**
   * Phases 4 and 5 for a query or mutation already admitted: a public read from the answer cache
   * (executed once per key, then shared), anything else executed. Callers must not mutate the result.
   */
  execute(op: OperationRequest<C>): Promise<ExecutionResult> | ExecutionResult {
    if (!this.reads.plan(op.document, op.operationName ?? undefined)) return this.run(op);
    return this.answers.answer(this.keyOf(op), () => this.run(op)).then((a) => a.result);
  }

  /**
   * Phases 3 to 6 for a REST route: admitted, answered from the cache when the operation is a
   * public read or `cached` (a route whose access is settled before it runs), else executed and
   * its cost charged; the data written as `view`. The first error, if any, is the answer.
   */
  async executeView(
    op: OperationRequest<C>,
    view: AnswerView,
    cached: boolean,
  ): Promise<ViewAnswer | { errors: readonly GraphQLError[] }> {
    const cost = this.admit(op);
    const runCharged = () => {
      this.charge(op.context(), cost);
      return this.run(op);
    };
    if (!cached && !this.reads.plan(op.document, op.operationName ?? undefined)) {
      const result = await runCharged();
      if (result.errors?.length) return { errors: result.errors };
      return { serialized: new SerializedAnswer(view.render(result.data)) };
    }
    const key = this.keyOf(op);
    const { result, cached: answer } = await this.answers.answer(key, runCharged, view);
    if (result.errors?.length) return { errors: result.errors };
    if (!answer) return { serialized: new SerializedAnswer(view.render(result.data)) };
    return { serialized: answer.serialized(view), cached: { key, answer } };
  }

  /**
   * Phase 6 for `/graphql`: the body of a result. A cached answer's is made once and shared by
   * every response that carries it; any other result is serialized as it is.
   */
  serialize(result: FormattedExecutionResult): string {
    if (result.errors === undefined && result.extensions === undefined) {
      const answer = this.answers.answerOf(result.data);
      if (answer) return answer.serialized(GRAPHQL_VIEW).text;
    }
    return `${JSON.stringify(result)}\n`;
  }

  /** A subscription admitted by a transport (graphql-sse): graphql-js's, ended after an `unavailable` event. */
  async subscribe(args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
    const result = await subscribeInterpreted(args);
    return Symbol.asyncIterator in result ? endAfterUnavailable(result) : result;
  }

  /**
   * A REST stream route's subscription: admitted and charged, then its source event stream (each
   * event is executed with {@link executeEvent}); an `ExecutionResult` when it could not start.
   */
  async openStream(op: OperationRequest<C>): Promise<AsyncIterable<unknown> | ExecutionResult> {
    const cost = this.admit(op);
    const contextValue = op.context();
    this.charge(contextValue, cost);
    return createSourceEventStream({
      schema: this.schema,
      document: op.document,
      variableValues: op.variables ?? undefined,
      operationName: op.operationName ?? undefined,
      contextValue,
    });
  }

  /** One event of a subscription's source stream, executed compiled with the subscription's selection. */
  executeEvent(op: OperationRequest<C> & { event: unknown }): Promise<ExecutionResult> | ExecutionResult {
    return this.executor.executeEvent({
      document: op.document,
      variableValues: op.variables,
      operationName: op.operationName,
      contextValue: op.context(),
      rootValue: op.event,
    });
  }

  private run(op: OperationRequest<C>): Promise<ExecutionResult> | ExecutionResult {
    return this.executor.execute({
      document: op.document,
      variableValues: op.variables,
      operationName: op.operationName,
      contextValue: op.context(),
    });
  }

  private keyOf(op: OperationRequest<C>): string {
    let source = op.source ?? this.sources.get(op.document);
    if (source === undefined) {
      source = print(op.document);
      this.sources.set(op.document, source);
    }
    return AnswerCache.keyOf(source, op.operationName, op.variables);
  }
}
