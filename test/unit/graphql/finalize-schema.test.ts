import { isObjectType, type GraphQLField, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import { finalizeSchema } from '../../../src/graphql/finalize-schema';
import { VENUE_FIELDS } from '../../../src/graphql/limits';
import { getResolvedFields, getSchema } from '../../../src/graphql/schema';
import { VENUE_READS_POLICY } from '../../../src/graphql/venue-read-limit';

function fieldOf(schema: GraphQLSchema, coordinate: string): GraphQLField<unknown, unknown> {
  const [typeName, fieldName] = coordinate.split('.');
  const type = schema.getType(typeName);
  if (!isObjectType(type)) throw new Error(`${typeName} is not an object type`);
  return type.getFields()[fieldName];
}

const info = {} as GraphQLResolveInfo;

describe('finalizeSchema: the changes made to the built schema, in one place', () => {
  let schema: GraphQLSchema;
  beforeAll(async () => {
    schema = await getSchema();
  });

  it('finalizes a schema once: a second pass would wrap its resolvers twice', () => {
    expect(() => finalizeSchema(schema)).toThrow(/finalized already/);
  });

  it("reads type-graphql's field resolvers from its exported metadata storage", async () => {
    const resolved = await getResolvedFields();
    expect(resolved.has('Event.markets')).toBe(true);
    expect(resolved.has('Market.orderBook')).toBe(true);
    expect(resolved.has('Event.title')).toBe(false);
  });

  it("gives plain fields graphql's property read and leaves resolvers where they are", () => {
    expect(fieldOf(schema, 'Event.title').resolve).toBeUndefined();
    expect(fieldOf(schema, 'Event.markets').resolve).toBeInstanceOf(Function);
    expect(fieldOf(schema, 'Query.events').resolve).toBeInstanceOf(Function);
  });

  it("checks a subscription's arguments when its stream is created, before its subscribe function runs", async () => {
    const feed = fieldOf(schema, 'Subscription.feed');
    // No context: were the subscribe function reached, it would fail on it instead (or later, in its promise).
    let thrown: unknown;
    try {
      await feed.subscribe!(undefined, { category: 'sports\u0000' }, undefined, info);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/NUL/) });
  });

  it("maps a subscription's events synchronously: its arguments were checked when the stream started", () => {
    // type-graphql's resolver validates the arguments again on each event, asynchronously: a promise per event.
    const item = {
      id: 'venue_a:m1:7',
      venue: 'venue_a',
      marketId: 'm1',
      seq: 7,
      kind: 'delta',
      bids: [],
      asks: [],
      trades: [],
      at: 0,
      receivedAt: 0,
    };
    const mapped = fieldOf(schema, 'Subscription.marketUpdates').resolve!(item, { depth: 10 }, undefined, info);
    expect(mapped).not.toBeInstanceOf(Promise);
    expect(mapped).toMatchObject({ id: 'venue_a:m1:7', seq: 7, receivedAt: new Date(0) });
    for (const name of ['trades', 'accountUpdates', 'feed', 'marketUpdates']) {
      const resolve = fieldOf(schema, `Subscription.${name}`).resolve!;
      expect(resolve.length).toBe(2); // called directly (root, args), not through type-graphql's handler
    }
  });

  it("counts every venue-reading field against the caller's venue-read limit while a venue is live", async () => {
    for (const coordinate of VENUE_FIELDS) {
      const consumed: [string, string][] = [];
      const context = {
        clientId: '203.0.113.9',
        auth: { optionalUser: async () => null },
        services: {
          venueSources: { venue_a: 'live', venue_b: 'sim' },
          rateLimits: {
            consume: async (policy: string, subject: string) => {
              consumed.push([policy, subject]);
              throw Object.assign(new Error('over the limit'), { code: 'rate_limited' });
            },
          },
        },
      };
      const resolve = fieldOf(schema, coordinate).resolve!;
      // Refused before the field's own resolver (which would need the whole context) runs.
      await expect(Promise.resolve().then(() => resolve(undefined, {}, context, info))).rejects.toMatchObject({
        code: 'rate_limited',
      });
      expect(consumed).toEqual([[VENUE_READS_POLICY, 'addr:203.0.113.9']]);
    }
  });
});
