import {
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  Lexer,
  print,
  Source,
  TokenKind,
  typeFromAST,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { z } from 'zod';
import * as operations from '../../../schema/generated/operations';
import { ROUTES } from '../../../rest-adapter/routes';
import type { AnyRouteDef } from '../../../rest-adapter/route.types';
import { loadConfig } from '../../../src/config';
import { GraphqlLimits, PAGE_SIZE_ARGS, VENUE_FIELDS } from '../../../src/graphql/limits';
import { getSchema } from '../../../src/graphql/schema';

/**
 * Every documented REST operation (each document of schema/operations is run by
 * a route) stays within the default limits, with the largest page each route
 * accepts: the defaults leave the composite screens room, and refuse the bombs.
 */

let schema: GraphQLSchema;
let limits: GraphqlLimits;
beforeAll(async () => {
  schema = await getSchema();
  limits = new GraphqlLimits(schema, loadConfig({ NODE_ENV: 'test' }).graphql);
});

/** A value of `type` that coerces: the first enum value, a one-item list, an input object's required fields. */
function sample(type: GraphQLInputType): unknown {
  const t = getNullableType(type);
  if (isListType(t)) return [sample(t.ofType)];
  if (isEnumType(t)) return t.getValues()[0].value;
  if (isInputObjectType(t)) {
    const required = Object.values(t.getFields()).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined);
    return Object.fromEntries(required.map((f) => [f.name, sample(f.type)]));
  }
  // A scalar: the first candidate it accepts (custom scalars have their own shapes).
  const candidates = ['x', 1, true, new Date().toISOString(), [], {}];
  return isScalarType(t)
    ? candidates.find((c) => {
        try {
          return t.parseValue(c) !== undefined;
        } catch {
          return false;
        }
      })
    : undefined;
}

/** The largest integer a route's parameter accepts (query values arrive as text, body values as numbers). */
function largestAccepted(schema: z.ZodType, asText: boolean): number | undefined {
  const ok = (n: number) => schema.safeParse(asText ? String(n) : n).success;
  if (!ok(1)) return undefined;
  let lo = 1;
  let hi = 1_000_000;
  if (ok(hi)) return hi;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The route's page-size parameters at their largest, through its variables mapping. */
function largestPages(route: AnyRouteDef): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const where of ['path', 'query', 'body'] as const) {
    const shape = (route.params?.[where]?.shape ?? {}) as Record<string, z.ZodType>;
    for (const [name, param] of Object.entries(shape)) {
      const largest = (PAGE_SIZE_ARGS as readonly string[]).includes(name)
        ? largestAccepted(param, where !== 'body')
        : undefined;
      input[name] = largest ?? 'sample';
    }
  }
  // A mapping that refused these values would leave the route's largest page unchecked: it fails here, named.
  let vars: Record<string, unknown>;
  try {
    vars = (route.variables ? route.variables(input) : input) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`${route.id}: its variables mapping refused ${JSON.stringify(input)}: ${String(err)}`);
  }
  return Object.fromEntries(
    Object.entries(vars).filter(([k, v]) => (PAGE_SIZE_ARGS as readonly string[]).includes(k) && typeof v === 'number'),
  );
}

function operationOf(doc: DocumentNode): OperationDefinitionNode {
  return doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
}

function tokenCount(source: string): number {
  const lexer = new Lexer(new Source(source));
  let n = 0;
  for (let t = lexer.advance(); t.kind !== TokenKind.EOF; t = lexer.advance()) n += 1;
  return n;
}

describe('documented operations within the default limits', () => {
  it('runs every document of schema/operations through some route', () => {
    const routed = new Set<unknown>(ROUTES.map((r) => r.document));
    const documents = Object.entries(operations).filter(([name]) => name.endsWith('Document'));
    expect(documents.length).toBeGreaterThan(50);
    expect(documents.filter(([, d]) => !routed.has(d)).map(([name]) => name)).toEqual([]);
  });

  it('keeps each route under depth, aliases, directives, tokens and cost, at its largest page', () => {
    const over: string[] = [];
    let largest = { route: '', cost: 0 };
    for (const route of ROUTES) {
      const doc = route.document as DocumentNode;
      const op = operationOf(doc);
      const variables: Record<string, unknown> = {};
      for (const v of op.variableDefinitions ?? []) {
        if (v.defaultValue !== undefined && !isNonNullType(typeFromAST(schema, v.type) as GraphQLInputType)) continue;
        variables[v.variable.name.value] = sample(typeFromAST(schema, v.type) as GraphQLInputType);
      }
      const pages = largestPages(route);
      Object.assign(variables, pages);
      const documentError = limits.checkDocument(doc);
      if (documentError) over.push(`${route.id}: ${documentError.message}`);
      const tokens = tokenCount(print(doc));
      if (tokens > limits.settings.maxTokens) over.push(`${route.id}: ${tokens} tokens`);
      // strictCost throws when the variables do not coerce: every route's cost is really computed.
      const cost = limits.strictCost(doc, variables);
      if (cost > limits.settings.maxCost) over.push(`${route.id}: cost ${cost} with ${JSON.stringify(pages)}`);
      if (cost > largest.cost) largest = { route: route.id, cost };
    }
    expect(over).toEqual([]);
    // The dearest documented operation leaves the default cost limit room (reported, not timed).
    process.stdout.write(`dearest route: ${largest.route} at cost ${largest.cost} of ${limits.settings.maxCost}\n`);
    expect(largest.cost).toBeLessThan(limits.settings.maxCost);
  });

  it('counts the largest page of a route: a bigger page costs more', () => {
    const events = ROUTES.find((r) => r.method === 'GET' && r.path === '/api/events' && r.surface === 'trading')!;
    const doc = events.document as DocumentNode;
    expect(largestPages(events)).toEqual({ pageSize: 100 });
    expect(limits.strictCost(doc, { pageSize: 100 })).toBeGreaterThan(limits.strictCost(doc, { pageSize: 10 }));
  });

  it('names venue-calling fields that exist in the schema', () => {
    for (const coordinate of VENUE_FIELDS) {
      const [type, field] = coordinate.split('.');
      const t = schema.getType(type);
      expect(t && 'getFields' in t && (t.getFields() as Record<string, unknown>)[field]).toBeTruthy();
    }
  });
});

describe('limit settings', () => {
  /** A production environment with every secret it requires (distinct, long enough). */
  const production = (extra: Record<string, string> = {}) =>
    loadConfig({
      NODE_ENV: 'production',
      AUTH_JWT_SECRET: 'user-secret-'.padEnd(48, 'u'),
      WALLET_AUTH_JWT_SECRET: 'wallet-secret-'.padEnd(48, 'w'),
      AUTH_JWT_ISSUER: 'https://issuer.example',
      AUTH_JWT_AUDIENCE: 'aggregator',
      ADMIN_TOKEN: 'admin-token-'.padEnd(48, 'a'),
      REWARDS_ADMIN_TOKEN: 'rewards-token-'.padEnd(48, 'r'),
      FEED_INGEST_TOKEN: 'feed-token-'.padEnd(48, 'f'),
      CURSOR_SECRET: 'cursor-secret-'.padEnd(48, 'c'),
      ALLOW_SIMULATED_VENUES: 'true',
      ...extra,
    }).graphql;

  it('has introspection and GraphiQL on outside production, off in production unless set', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).graphql).toMatchObject({ introspection: true, graphiql: true });
    expect(production()).toMatchObject({ introspection: false, graphiql: false });
    expect(production({ GRAPHQL_INTROSPECTION: 'true', GRAPHIQL: 'true' })).toMatchObject({
      introspection: true,
      graphiql: true,
    });
    expect(loadConfig({ NODE_ENV: 'test', GRAPHQL_INTROSPECTION: 'false' }).graphql.introspection).toBe(false);
  });

  it('takes the documented defaults and refuses bad values naming the variable', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).graphql).toMatchObject({
      maxDepth: 12,
      maxAliases: 30,
      maxTokens: 3000,
      maxDirectives: 20,
      maxCost: 10_000,
      costUnit: 100,
    });
    expect(() => loadConfig({ NODE_ENV: 'test', GRAPHQL_MAX_DEPTH: '0' })).toThrow(/GRAPHQL_MAX_DEPTH/);
    expect(() => loadConfig({ NODE_ENV: 'test', GRAPHQL_MAX_COST: 'lots' })).toThrow(/GRAPHQL_MAX_COST/);
    expect(() => loadConfig({ NODE_ENV: 'test', GRAPHIQL: 'yes' })).toThrow(/GRAPHIQL/);
  });
});
