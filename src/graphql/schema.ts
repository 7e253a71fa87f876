import 'reflect-metadata';
import { assertValidSchema, isObjectType, lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema, type NonEmptyArray } from 'type-graphql';
import { MODULES } from '../modules/registry';
import { refuseUnstorableArgs, validateArgs } from './validate-args';
import { limitVenueFields } from './venue-read-limit';

let built: Promise<GraphQLSchema> | undefined;
let resolvedFields: ReadonlySet<string> | undefined;

/**
 * Every subscription here subscribes through the request context's pub/sub (the
 * `subscribe` option), because the schema is shared by app instances with their
 * own infra. type-graphql insists on a global PubSub regardless; this one refuses
 * use so a subscription declared with `topics` fails loudly instead of silently.
 */
const contextOnlyPubSub = {
  publish(): never {
    throw new Error('publish through context.services.infra.pubsub');
  },
  subscribe(): never {
    throw new Error('declare subscriptions with the `subscribe` option (context pub/sub)');
  },
};

/** The one executable schema (built once per process; type-graphql metadata is global). */
export function getSchema(): Promise<GraphQLSchema> {
  // Every module's resolvers: the registry is the one list.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  const resolvers = MODULES.flatMap((m) => m.resolvers ?? []) as unknown as NonEmptyArray<Function>;
  built ??= buildSchema({
    resolvers,
    validateFn: validateArgs,
    pubSub: contextOnlyPubSub,
    // type-graphql's check runs the whole introspection query (about 60 ms of every start) to
    // surface the schema's errors; graphql's own validation of the schema finds the same ones.
    skipCheck: true,
  }).then((schema) => {
    assertValidSchema(schema);
    checkSubscriptionArgsOnSubscribe(schema);
    resolvedFields = fieldsWithResolvers();
    usePropertyReads(schema, resolvedFields);
    limitVenueFields(schema);
    return schema;
  });
  return built;
}

/**
 * type-graphql validates a field's arguments in its resolver, which for a subscription runs on each
 * event, after the stream has started (an order has run). Every subscription's arguments are
 * checked for text PostgreSQL cannot store when its stream is created instead, before its
 * subscribe function runs: a 400 before anything happens.
 */
function checkSubscriptionArgsOnSubscribe(schema: GraphQLSchema): void {
  for (const field of Object.values(schema.getSubscriptionType()?.getFields() ?? {})) {
    const subscribe = field.subscribe;
    if (!subscribe) continue;
    field.subscribe = (source, args, context, info) => {
      refuseUnstorableArgs(args as Record<string, unknown>);
      return subscribe(source, args, context, info);
    };
  }
}

/** `Type.field` of every field with a resolver of its own (a field resolver); the rest are plain properties. */
export async function getResolvedFields(): Promise<ReadonlySet<string>> {
  await getSchema();
  return resolvedFields!;
}

/**
 * type-graphql's registry of field resolvers. It does not export its metadata
 * storage, which it keeps on this global (so copies of the package share it);
 * nothing else knows which fields are plain properties.
 */
interface TypeGraphqlMetadata {
  objectTypes: { target: unknown; name: string }[];
  interfaceTypes: { target: unknown; name: string }[];
  fieldResolvers: { schemaName: string; getObjectType?: () => unknown }[];
  fields: { name: string; schemaName: string }[];
  middlewares: unknown[];
  authorizedFields: unknown[];
}

function metadata(): TypeGraphqlMetadata {
  const storage = (globalThis as { TypeGraphQLMetadataStorage?: TypeGraphqlMetadata }).TypeGraphQLMetadataStorage;
  if (!storage) throw new Error('type-graphql metadata storage not found: the schema was not built by type-graphql');
  return storage;
}

function fieldsWithResolvers(): Set<string> {
  const m = metadata();
  const names = new Map([...m.objectTypes, ...m.interfaceTypes].map((t) => [t.target, t.name]));
  const keys = new Set<string>();
  for (const fr of m.fieldResolvers) {
    const type = names.get(fr.getObjectType?.());
    // A resolver whose type cannot be named would make its field look plain: refuse to guess.
    if (type === undefined) throw new Error(`field resolver ${fr.schemaName}: its object type is not registered`);
    keys.add(`${type}.${fr.schemaName}`);
  }
  return keys;
}

/**
 * type-graphql gives every plain field a resolver that returns `root[name]`
 * through the (here empty) middleware chain: a function call per field and
 * object. Without middlewares or authorization, graphql's default property read
 * is the same answer, and graphql-jit compiles it to a property access.
 */
function usePropertyReads(schema: GraphQLSchema, resolved: ReadonlySet<string>): void {
  const m = metadata();
  if (m.middlewares.length > 0 || m.authorizedFields.length > 0) return;
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]);
  // A field renamed in the schema reads a property of another name: its resolver stays.
  const renamed = new Set(m.fields.filter((f) => f.name !== f.schemaName).map((f) => f.schemaName));
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__') || roots.has(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (!resolved.has(`${type.name}.${field.name}`) && !renamed.has(field.name)) field.resolve = undefined;
    }
  }
}

/** The SDL committed as schema/schema.graphql (sorted, so diffs stay readable). */
export async function printSdl(): Promise<string> {
  return `${printSchema(lexicographicSortSchema(await getSchema()))}\n`;
}
