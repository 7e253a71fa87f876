import 'reflect-metadata';
import { assertValidSchema, lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema, type NonEmptyArray } from 'type-graphql';
import { MODULES } from '../modules/registry';
import { finalizeSchema, type FinalizedSchema } from './finalize-schema';
import { validateArgs } from './validate-args';

let built: Promise<{ schema: GraphQLSchema } & FinalizedSchema> | undefined;

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

function build(): Promise<{ schema: GraphQLSchema } & FinalizedSchema> {
  // Every module's resolvers: the registry is the one list.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  const resolvers = MODULES.flatMap((m) => m.resolvers ?? []) as unknown as NonEmptyArray<Function>;
  built ??= buildSchema({
    resolvers,
    validateFn: validateArgs,
    pubSub: contextOnlyPubSub,
    // type-graphql's check runs the whole introspection query at every start to
    // surface the schema's errors; graphql's own validation of the schema finds the same ones.
    skipCheck: true,
  }).then((schema) => {
    assertValidSchema(schema);
    // The changes made after the build (finalize-schema.ts): argument checks, property reads, venue limits.
    return { schema, ...finalizeSchema(schema) };
  });
  return built;
}

/** The one executable schema (built once per process; type-graphql metadata is global). */
export async function getSchema(): Promise<GraphQLSchema> {
  return (await build()).schema;
}

/** `Type.field` of every field with a resolver of its own (a field resolver); the rest are plain properties. */
export async function getResolvedFields(): Promise<ReadonlySet<string>> {
  return (await build()).resolvedFields;
}

/** The SDL committed as schema/schema.graphql (sorted, so diffs stay readable). */
export async function printSdl(): Promise<string> {
  return `${printSchema(lexicographicSortSchema(await getSchema()))}\n`;
}
