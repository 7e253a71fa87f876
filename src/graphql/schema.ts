import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema, type NonEmptyArray } from 'type-graphql';
import { MODULES } from '../modules/registry';
import { validateArgs } from './validate-args';

let built: Promise<GraphQLSchema> | undefined;

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
  });
  return built;
}

/** The SDL committed as schema/schema.graphql (sorted, so diffs stay readable). */
export async function printSdl(): Promise<string> {
  return `${printSchema(lexicographicSortSchema(await getSchema()))}\n`;
}
