import {
  execute,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
  type ExecutionResult,
} from 'graphql';
import { isCompiledQuery } from 'graphql-jit';
import { GraphqlExecutor } from '../../../src/graphql/executor';

/**
 * A REST stream's messages: each event of a subscription's source stream executed with the
 * subscription's selection. The compiled path (graphql-jit) must answer as graphql-js does.
 */
const Trade = new GraphQLObjectType({
  name: 'Trade',
  fields: {
    id: { type: new GraphQLNonNull(GraphQLString) },
    size: { type: GraphQLInt },
    label: {
      type: GraphQLString,
      args: { prefix: { type: GraphQLString } },
      resolve: (t: { id: string }, a: { prefix?: string }) => `${a.prefix ?? ''}${t.id}`,
    },
    broken: {
      type: GraphQLString,
      resolve: () => {
        throw new Error('no such thing');
      },
    },
  },
});

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLString } } }),
  subscription: new GraphQLObjectType({
    name: 'Subscription',
    fields: {
      trades: {
        type: new GraphQLNonNull(Trade),
        args: { market: { type: GraphQLString } },
        resolve: (event: { trade: unknown }) => event.trade,
        subscribe: async function* () {
          // The source stream is not used here: events are given as root values.
        },
      },
    },
  }),
});

const document = parse(`subscription Trades($market: String, $prefix: String) {
  trades(market: $market) { id size label(prefix: $prefix) }
}`);

const plain = (r: ExecutionResult) => JSON.parse(JSON.stringify(r)) as unknown;

describe('GraphqlExecutor.executeEvent', () => {
  const executor = new GraphqlExecutor(schema);
  const variableValues = { market: 'm-1', prefix: 'trade-' };

  it('answers each event as graphql-js does, with the variables of the subscription', async () => {
    for (const trade of [
      { id: 'a', size: 3 },
      { id: 'b', size: null },
    ]) {
      const compiled = await executor.executeEvent({
        document,
        variableValues,
        contextValue: {},
        rootValue: { trade },
      });
      const reference = await execute({ schema, document, variableValues, contextValue: {}, rootValue: { trade } });
      expect(plain(compiled)).toEqual(plain(reference));
      expect(compiled.data).toEqual({ trades: { id: trade.id, size: trade.size, label: `trade-${trade.id}` } });
    }
  });

  it('a field that fails is null with its error and path, as graphql-js reports it', async () => {
    const failing = parse('subscription { trades { id broken } }');
    const args = { document: failing, variableValues: {}, contextValue: {}, rootValue: { trade: { id: 'c' } } };
    const compiled = await executor.executeEvent(args);
    const reference = await execute({ schema, ...args });
    expect(compiled.data).toEqual({ trades: { id: 'c', broken: null } });
    expect(compiled.errors?.map((e) => [e.message, e.path])).toEqual([['no such thing', ['trades', 'broken']]]);
    expect(compiled.errors?.map((e) => [e.message, e.path])).toEqual(reference.errors?.map((e) => [e.message, e.path]));
  });

  it('an event breaking a non-null field nulls the whole message, as graphql-js does', async () => {
    const args = { document, variableValues, contextValue: {}, rootValue: { trade: { size: 1 } } };
    const compiled = await executor.executeEvent(args);
    const reference = await execute({ schema, ...args });
    expect(compiled.data).toBeNull();
    expect(reference.data).toBeNull();
    expect(compiled.errors).toHaveLength(1);
  });

  it("compiles a document's subscription once, with graphql-jit, for every event after", async () => {
    const once = parse('subscription Once { trades { id } }');
    for (const id of ['d', 'e', 'f']) {
      const rootValue = { trade: { id } };
      const r = await executor.executeEvent({ document: once, variableValues: {}, contextValue: {}, rootValue });
      expect(r.data).toEqual({ trades: { id } });
    }
    // White-box: the operation the executor holds for the document is graphql-jit's.
    type Held = Parameters<typeof isCompiledQuery>[0] | null;
    const held = (executor as unknown as { compiled: WeakMap<object, Map<string, Held>> }).compiled.get(once)?.get('');
    expect(held && isCompiledQuery(held)).toBe(true);
  });
});
