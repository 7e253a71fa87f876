import {
  getNamedType,
  isInputObjectType,
  isNonNullType,
  Kind,
  OperationTypeNode,
  typeFromAST,
  validate,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { z } from 'zod';
import type { AnyRouteDef } from './route.types';

/*
 * The start-up check of each route against the schema: a route whose operation no longer
 * validates, or whose parameters no longer reach its operation's variables, stops the process.
 */

/**
 * Checks a route's document against the schema at start: a route whose
 * operation no longer validates must stop the process, not fail per request.
 */
export function assertRouteValid(schema: GraphQLSchema, route: AnyRouteDef): void {
  const doc = route.document as DocumentNode;
  const errors = validate(schema, doc);
  if (errors.length > 0) {
    throw new Error(`route ${route.id}: operation does not validate: ${errors.map((e) => e.message).join('; ')}`);
  }
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!op) throw new Error(`route ${route.id}: document has no operation`);
  if ((op.operation === OperationTypeNode.SUBSCRIPTION) !== (route.stream !== undefined)) {
    throw new Error(`route ${route.id}: stream routes run subscriptions and only they do`);
  }
  // A cache hit skips the resolvers, so only queries whose access is settled before routing
  // qualify: public ones, and API-key ones (the market-data gate checks key, scope and limit
  // first; such a route must serve the same data to every key).
  if (route.cache && (!['none', 'api-key'].includes(route.auth) || op.operation !== OperationTypeNode.QUERY)) {
    throw new Error(`route ${route.id}: only public or API-key queries may be cached`);
  }
  const root = route.result.split('.')[0];
  const hasRoot = op.selectionSet.selections.some(
    (s) => s.kind === Kind.FIELD && (s.alias?.value ?? s.name.value) === root,
  );
  if (!hasRoot) throw new Error(`route ${route.id}: result path ${route.result} is not selected`);
  const problem = variableProblem(schema, route, op);
  if (problem) throw new Error(`route ${route.id}: ${problem}`);
}

/** Stands for a parameter's value when a route's `variables` mapping is run on a sample at start. */
const SAMPLE = 'sample';

/**
 * The parameters a route reads (path, query, body keys and the raw-body
 * variable), each with whether every accepted request carries it: a key whose
 * schema refuses or defaults an absent value always arrives.
 */
function routeParameters(route: AnyRouteDef): Map<string, boolean> {
  const out = new Map<string, boolean>();
  if (route.rawBody) out.set(route.rawBody.variable, true);
  for (const where of ['body', 'query', 'path'] as const) {
    const shape = (route.params?.[where]?.shape ?? {}) as Record<string, z.ZodType>;
    for (const [name, schema] of Object.entries(shape)) {
      const absent = schema.safeParse(undefined);
      out.set(name, where === 'path' || !absent.success || absent.data !== undefined);
    }
  }
  return out;
}

/** What the route hands the operation (as `variablesFor` does), run on a sample request with these parameters. */
function sampleVariables(route: AnyRouteDef, names: readonly string[]): Record<string, unknown> {
  const input = Object.fromEntries(names.map((n) => [n, SAMPLE]));
  let vars: Record<string, unknown>;
  try {
    vars = (route.variables ? route.variables(input) : input) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`route ${route.id}: its variables mapping fails on a sample request: ${String(err)}`);
  }
  return Object.fromEntries(Object.entries(vars).filter(([, v]) => v !== undefined));
}

/**
 * Checks what a route sends against its operation's variables. Every name it
 * sends must be declared: graphql-js ignores an undeclared variable, so a
 * renamed one would drop the parameter without a word (and an unknown input
 * field would fail every request). Every required variable (non-null, no
 * default) must be sent by every request the route accepts. Input-object
 * variables (`{ input }`) are checked the same way one level down.
 */
function variableProblem(schema: GraphQLSchema, route: AnyRouteDef, op: OperationDefinitionNode): string | undefined {
  const params = routeParameters(route);
  const all = sampleVariables(route, [...params.keys()]);
  const alwaysSent = [...params].filter(([, always]) => always).map(([name]) => name);
  const always = sampleVariables(route, alwaysSent);
  const declared = new Map(
    (op.variableDefinitions ?? []).map((d) => [
      d.variable.name.value,
      { type: typeFromAST(schema, d.type) as GraphQLInputType | undefined, required: isRequired(d) },
    ]),
  );
  const names = [...declared.keys()].map((n) => `$${n}`).join(', ') || 'none';
  for (const [name, value] of Object.entries(all)) {
    const v = declared.get(name);
    if (!v) return `parameter "${name}" is not a variable of the operation (its variables: ${names})`;
    const fieldProblem = inputFieldProblem(name, v.type, value, always[name]);
    if (fieldProblem) return fieldProblem;
  }
  for (const [name, v] of declared) {
    if (v.required && always[name] === undefined) {
      return `the operation's required variable $${name} is not sent by every request the route accepts`;
    }
  }
  return undefined;
}

function isRequired(d: NonNullable<OperationDefinitionNode['variableDefinitions']>[number]): boolean {
  return d.type.kind === Kind.NON_NULL_TYPE && d.defaultValue === undefined;
}

/** The same check on an input object the route builds from its parameters (`{ input }`). */
function inputFieldProblem(
  variable: string,
  type: GraphQLInputType | undefined,
  value: unknown,
  alwaysValue: unknown,
): string | undefined {
  const named = type && getNamedType(type);
  if (!isInputObjectType(named) || typeof value !== 'object' || value === null || Array.isArray(value)) {
    return undefined;
  }
  const fields = named.getFields();
  for (const key of Object.keys(value)) {
    if (!fields[key]) return `parameter "${variable}.${key}" is not a field of ${named.name}`;
  }
  const present = (alwaysValue ?? {}) as Record<string, unknown>;
  for (const f of Object.values(fields)) {
    if (isNonNullType(f.type) && f.defaultValue === undefined && present[f.name] === undefined) {
      return `the required field ${named.name}.${f.name} is not sent by every request the route accepts`;
    }
  }
  return undefined;
}
