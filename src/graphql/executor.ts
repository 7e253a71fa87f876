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
import { ByteLru, utf8Bytes } from '../infra/byte-lru';
import type { PublicReads } from './public-reads';

export interface ExecuteArgs {
  document: DocumentNode;
  variableValues?: Readonly<Record<string, unknown>> | null;
  contextValue: unknown;
  operationName?: string | null;
}

/** How the executor answers public reads from memory (public-reads.ts). */
export interface PublicReadCacheOptions {
  reads: PublicReads;
  /** How long an answer lives at most when no invalidation reaches it. */
  ttlMs: number;
  /** Answers kept at most (the least recently used go first). */
  maxEntries: number;
  /**
   * Bytes of answers kept at most: each weighs its key and its data's JSON (serialized once, when
   * it resolves); the least recently used go first, and an answer heavier than this is not kept.
   */
  maxBytes: number;
  now?: () => number;
}

interface CachedAnswer {
  key: string;
  expires: number;
  generation: number;
  result: Promise<ExecutionResult>;
}

/** Compiled operations a document may hold at most (one per operation name; documents rarely hold more). */
const MAX_OPERATIONS_PER_DOCUMENT = 16;

/**
 * Executes queries and mutations through graphql-jit: each operation of a
 * document is compiled once to a function, and later executions skip
 * graphql-js's per-field interpretation (argument coercion, type checks, the
 * resolver lookup per field), which profiles showed as the bulk of a page's CPU.
 * Both `/graphql` (Apollo's executor) and the REST adapter execute here, so they
 * share the compiled operations of their documents.
 *
 * Documents are keyed by identity: Apollo keeps one parsed document per query
 * text, and the REST routes hold theirs for the process's life. Variables are
 * coerced by graphql-js first, so a bad variable gets graphql-js's own error
 * (the one Apollo answers with 400). Subscriptions stay on graphql-js's
 * `subscribe` (`/graphql/stream`); the REST streams execute each event of theirs
 * compiled too ({@link executeEvent}). An operation graphql-jit cannot compile
 * falls back to graphql-js.
 */
export class GraphqlExecutor {
  private readonly compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();
  private readonly documentIds = new WeakMap<DocumentNode, number>();
  private nextDocumentId = 1;
  private readonly answers: ByteLru<string, CachedAnswer>;
  private generation = 0;
  /** The data of cached answers, serialized once (Apollo's `stringifyResult` reads it). */
  private readonly serialized = new WeakMap<object, string>();
  /** The entry each cached answer's data came from (for {@link holdsData}). */
  private readonly cachedData = new WeakMap<object, CachedAnswer>();

  constructor(
    readonly schema: GraphQLSchema,
    private readonly cache?: PublicReadCacheOptions,
  ) {
    this.answers = new ByteLru(cache?.maxBytes ?? 1, { maxEntries: cache?.maxEntries ?? 0 });
  }

  /** The bytes and count of the public-read answers held. */
  get cachedAnswers(): { bytes: number; entries: number } {
    return { bytes: this.answers.bytes, entries: this.answers.size };
  }

  /** Forgets every cached answer (a topic a public read is invalidated by was published). */
  invalidate(): void {
    this.generation += 1;
    this.answers.clear();
  }

  /**
   * The JSON of a result's data when it is a cached answer's (serialized on first
   * use, then shared by every response that carries it); otherwise `undefined`.
   */
  serializedData(data: unknown): string | undefined {
    if (data === null || typeof data !== 'object' || !this.cachedData.has(data)) return undefined;
    let json = this.serialized.get(data);
    if (json === undefined) {
      json = JSON.stringify(data);
      this.serialized.set(data, json);
    }
    return json;
  }

  /** Whether `data` is a cached answer's that the cache still holds (not expired, not invalidated). */
  holdsData(data: unknown): boolean {
    if (data === null || typeof data !== 'object') return false;
    const entry = this.cachedData.get(data);
    const now = this.cache?.now ?? Date.now;
    return (
      entry !== undefined &&
      this.answers.peek(entry.key) === entry &&
      entry.generation === this.generation &&
      entry.expires > now()
    );
  }

  execute(args: ExecuteArgs): Promise<ExecutionResult> | ExecutionResult {
    const plan = this.cache?.reads.plan(args.document, args.operationName ?? undefined);
    return plan ? this.executeCached(args) : this.executeNow(args);
  }

  /**
   * A public read: answered from memory when the same operation ran with the same
   * variables since the last invalidation. Only answers without errors are kept; a
   * miss already in flight is shared. Callers must not mutate a returned result.
   */
  private executeCached(args: ExecuteArgs): Promise<ExecutionResult> {
    const { ttlMs, now = Date.now } = this.cache!;
    const variables = JSON.stringify(args.variableValues ?? {});
    const key = `${this.documentId(args.document)}\u0000${args.operationName ?? ''}\u0000${variables}`;
    const t = now();
    const hit = this.answers.get(key);
    if (hit && hit.expires > t && hit.generation === this.generation) return hit.result;
    const generation = this.generation;
    const result = Promise.resolve(this.executeNow(args));
    const entry: CachedAnswer = { key, expires: t + ttlMs, generation, result };
    // Weighs its key while pending, its key and JSON once resolved.
    const keyBytes = utf8Bytes(key);
    this.answers.set(key, entry, keyBytes);
    const forget = () => {
      if (this.answers.peek(key) === entry) this.answers.delete(key);
    };
    result.then((r) => {
      if (r.errors?.length || r.data == null || generation !== this.generation || this.answers.peek(key) !== entry) {
        return forget();
      }
      const json = JSON.stringify(r.data);
      if (!this.answers.set(key, entry, keyBytes + utf8Bytes(json))) return;
      this.serialized.set(r.data, json);
      this.cachedData.set(r.data, entry);
    }, forget);
    return result;
  }

  private documentId(document: DocumentNode): number {
    let id = this.documentIds.get(document);
    if (id === undefined) {
      id = this.nextDocumentId++;
      this.documentIds.set(document, id);
    }
    return id;
  }

  private executeNow(args: ExecuteArgs): Promise<ExecutionResult> | ExecutionResult {
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
   * skip the per-field interpretation (a stored execution's progress events were a sixth of its
   * CPU). The variables are the subscription's, coerced when its stream was created.
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

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as Promise<T>)?.then === 'function';
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
