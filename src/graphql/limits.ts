import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isLeafType,
  isListType,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ParseOptions,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { getComplexity, type ComplexityEstimatorArgs } from 'graphql-query-complexity';
import { boundedJsonText } from '../http/json-bounds';

/**
 * The GraphQL limits, defined once and applied by the operation pipeline
 * (pipeline/operation-pipeline.ts) to every operation, whatever its transport:
 * Apollo at /graphql, graphql-sse at /graphql/stream and the REST adapter. Each
 * is checked before execution and answered with a 400 whose message starts
 * with the limit's name (`maxDepth: ...`):
 *
 * - `maxTokens`: graphql-js's own parser bound (`parse(source, { maxTokens })`);
 * - `maxDepth`, `maxAliases`, `maxDirectives`: graphql-armor validation rules;
 * - `maxCost`: graphql-query-complexity with the estimator below (it needs the
 *   variables, so it runs once they are known, still before execution).
 */

/** The settings (`GRAPHQL_MAX_*`, `GRAPHQL_INTROSPECTION` in config.ts). */
export interface GraphqlLimitSettings {
  maxDepth: number;
  maxAliases: number;
  maxTokens: number;
  maxDirectives: number;
  maxCost: number;
  introspection: boolean;
}

/** The names of the limits: a limit error's message starts with one. */
export type LimitName = 'maxDepth' | 'maxAliases' | 'maxTokens' | 'maxDirectives' | 'maxCost';

/** Cost of a field that calls a venue (order book, trades, holders, charts, cost rundown, routing). */
export const VENUE_FIELD_COST = 10;

/** How many rows a list without a size argument is taken to hold (an event's markets, a book's levels). */
export const LIST_FACTOR = 10;

/** Arguments whose value is how many rows a field returns. */
export const PAGE_SIZE_ARGS = ['pageSize', 'limit', 'first'] as const;

/**
 * Fields (as `Type.field`) whose resolver calls a venue or fans out to several
 * venue calls. A test checks that each still exists in the schema.
 */
export const VENUE_FIELDS: ReadonlySet<string> = new Set([
  'Market.orderBook',
  'Query.orderBooks',
  'Market.trades',
  'Market.holders',
  'Market.holderSummary',
  'Market.chart',
  'Event.history',
  'Query.costRundown',
  'Mutation.createRoute',
  'Query.portfolio',
]);

/** A request over a limit: 400 on every surface, with a message naming the limit. */
export function limitError(limit: LimitName, message: string): GraphQLError {
  return new GraphQLError(`${limit}: ${message}`, {
    extensions: { code: 'BAD_REQUEST', limit, http: { status: 400 } },
  });
}

/** graphql-js's token message, the only limit error not built here. */
const TOKENS_MESSAGE = /^Syntax Error: Document contains more that (\d+) tokens\. Parsing aborted\.$/;

/**
 * The message a client sees for an error of parsing or validation: the token
 * bound's message of graphql-js is rewritten to name the limit like the others.
 */
export function limitMessage(message: string): string {
  const tokens = TOKENS_MESSAGE.exec(message);
  return tokens ? `maxTokens: the document has more than ${tokens[1]} tokens` : message;
}

/** The options of the graphql-armor rules used here. */
interface ArmorOptions {
  n: number;
  propagateOnRejection: boolean;
  onReject: ((ctx: ValidationContext | null, err: GraphQLError) => void)[];
  allowList?: string[];
}

/** One graphql-armor rule whose rejection is reported as {@link limitError} of `limit`. */
function armored(
  limit: LimitName,
  rule: (options: ArmorOptions) => ValidationRule,
  n: number,
  extra: Partial<ArmorOptions> = {},
): ValidationRule {
  return rule({
    ...extra,
    n,
    propagateOnRejection: false,
    onReject: [(ctx, err) => ctx?.reportError(limitError(limit, err.message.replace(/^Syntax Error: /, '')))],
  });
}

/**
 * The cost of one field: its own weight (a venue call {@link VENUE_FIELD_COST},
 * any other object field 1, a scalar 0) plus its selection's cost times the
 * rows it returns: the page-size argument when it has one, else
 * {@link LIST_FACTOR} for a list (a page's `data` rows are counted by the
 * page's size argument). Introspection is not charged.
 */
export function fieldCost({ type, field, args, childComplexity }: ComplexityEstimatorArgs): number {
  if (field.name.startsWith('__')) return 0;
  const coordinate = `${type.name}.${field.name}`;
  const own = VENUE_FIELDS.has(coordinate) ? VENUE_FIELD_COST : isLeafType(getNamedType(field.type)) ? 0 : 1;
  return own + rowsOf(type.name, field.name, field.type, args) * childComplexity;
}

function rowsOf(parent: string, name: string, type: ComplexityEstimatorArgs['field']['type'], args: object): number {
  const values = args as Record<string, unknown>;
  for (const arg of PAGE_SIZE_ARGS) {
    const v = values[arg];
    if (typeof v === 'number' && Number.isFinite(v)) return Math.max(0, Math.ceil(v));
  }
  if (!isListType(getNullableType(type))) return 1;
  if (name === 'data' && parent.endsWith('Page')) return 1;
  return LIST_FACTOR;
}

/** The limits of one schema, with the settings in force. */
export class GraphqlLimits {
  /** The parser options: `maxTokens`. */
  readonly parseOptions: ParseOptions;
  /** Depth, aliases and directives (and no introspection when it is off), beside graphql-js's own rules. */
  readonly rules: readonly ValidationRule[];
  /** The same without the introspection rule (Apollo applies its own `introspection` option). */
  readonly limitRules: readonly ValidationRule[];
  private readonly checked = new WeakMap<DocumentNode, GraphQLError | null>();
  /** Costs already computed, per document (by identity) and operation name plus variables. */
  private readonly costs = new WeakMap<DocumentNode, Map<string, number>>();

  constructor(
    readonly schema: GraphQLSchema,
    readonly settings: GraphqlLimitSettings,
  ) {
    this.parseOptions = { maxTokens: settings.maxTokens };
    this.limitRules = [
      armored('maxDepth', maxDepthRule, settings.maxDepth),
      // Every alias counts, `__typename` ones too (graphql-armor lets those through by default).
      armored('maxAliases', maxAliasesRule, settings.maxAliases, { allowList: [] }),
      armored('maxDirectives', maxDirectivesRule, settings.maxDirectives),
    ];
    this.rules = settings.introspection ? this.limitRules : [...this.limitRules, NoSchemaIntrospectionCustomRule];
  }

  /** Parses under the token bound: a syntax error, or the token limit, is a 400. */
  parse(source: string): DocumentNode {
    try {
      return parse(source, this.parseOptions);
    } catch (err) {
      if (err instanceof GraphQLError) {
        const message = limitMessage(err.message);
        if (message !== err.message) throw limitError('maxTokens', message.replace(/^maxTokens: /, ''));
      }
      throw err;
    }
  }

  /** The first limit the document breaks (depth, aliases, directives), if any; no other rule runs. */
  checkDocument(document: DocumentNode): GraphQLError | undefined {
    const known = this.checked.get(document);
    if (known !== undefined) return known ?? undefined;
    const error = validate(this.schema, document, this.limitRules)[0];
    // A document is checked once (the REST routes' fixed documents, Apollo's parsed ones).
    this.checked.set(document, error ?? null);
    return error;
  }

  /** graphql-js's rules and the limit rules: every error (limit errors are {@link limitError}s). */
  validate(document: DocumentNode): readonly GraphQLError[] {
    return validate(this.schema, document, [...specifiedRules, ...this.rules]);
  }

  /**
   * The operation's cost with these variables. Variables that do not coerce
   * cost nothing here: execution refuses them before any resolver runs.
   */
  cost(document: DocumentNode, variables?: Record<string, unknown>, operationName?: string): number {
    // The walk costs about as much as executing a cached page: a document asked again with the same
    // variables (a screen's polling, the REST routes) reuses its cost. The key is the variables' JSON,
    // built without recursion and given up past its bound (bulk inputs are not remembered).
    const variablesKey = boundedJsonText(variables ?? {}, MAX_COST_KEY_LENGTH);
    if (variablesKey === undefined) return this.costOrZero(document, variables, operationName);
    let known = this.costs.get(document);
    if (!known) {
      known = new Map();
      this.costs.set(document, known);
    }
    const key = `${operationName ?? ''}\u0000${variablesKey}`;
    let cost = known.get(key);
    if (cost === undefined) {
      cost = this.costOrZero(document, variables, operationName);
      if (known.size >= MAX_COSTS_PER_DOCUMENT) known.clear();
      known.set(key, cost);
    }
    return cost;
  }

  private costOrZero(document: DocumentNode, variables?: Record<string, unknown>, operationName?: string): number {
    try {
      return this.strictCost(document, variables, operationName);
    } catch {
      return 0;
    }
  }

  /** The cost, throwing when the variables do not coerce; past {@link MAX_COST_NODES} selections: infinite. */
  strictCost(document: DocumentNode, variables?: Record<string, unknown>, operationName?: string): number {
    try {
      return getComplexity({
        schema: this.schema,
        query: document,
        variables: variables ?? {},
        operationName,
        estimators: [fieldCost],
        maxQueryNodes: MAX_COST_NODES,
      });
    } catch (err) {
      if (err instanceof GraphQLError && err.message.includes('maximum allowed number of nodes')) {
        return Number.POSITIVE_INFINITY;
      }
      throw err;
    }
  }

  /** The cost, or a 400 naming `maxCost` when it is over the limit. */
  checkCost(document: DocumentNode, variables?: Record<string, unknown>, operationName?: string): number {
    const cost = this.cost(document, variables, operationName);
    if (cost > this.settings.maxCost) {
      const found = Number.isFinite(cost) ? String(cost) : 'more';
      throw limitError('maxCost', `query cost limit of ${this.settings.maxCost} exceeded, found ${found}`);
    }
    return cost;
  }
}

/** Costs remembered per document (distinct operation names and variables); past it, the memo restarts. */
const MAX_COSTS_PER_DOCUMENT = 256;
/** Variables longer than this as JSON (bulk inputs) are not remembered: the memo stays small. */
const MAX_COST_KEY_LENGTH = 2_048;

/** Selections the cost walk visits at most (fragments spread many times would repeat the walk). */
const MAX_COST_NODES = 50_000;
