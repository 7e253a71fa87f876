import { isObjectType, parse } from 'graphql';
import { PublicReads } from '../../../src/graphql/public-reads';
import { getResolvedFields, getSchema } from '../../../src/graphql/schema';
import { CATALOG_CHANGED_TOPIC } from '../../../src/modules/events';
import { NO_BACKGROUND_TIMERS, startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';

const PAGE = '{ events(page: 1, pageSize: 5) { data { id title markets { id yesPrice } } total } }';

describe('public reads: which operations are answered from memory', () => {
  let reads: PublicReads;
  beforeAll(async () => {
    reads = new PublicReads(await getSchema(), await getResolvedFields());
  });
  const plan = (text: string, operationName?: string) => reads.plan(parse(text), operationName);

  it('takes a query of declared public reads and plain fields, with the topics that invalidate it', () => {
    expect(plan(PAGE)).toEqual({ topics: [CATALOG_CHANGED_TOPIC] });
    expect(plan('query Q { market(venue: venue_a, marketId: "m") { __typename title event { slug } } }', 'Q')).toEqual({
      topics: [CATALOG_CHANGED_TOPIC],
    });
    expect(plan('{ ...F } fragment F on Query { event(ref: "x") { ... on Event { title } } }')).not.toBeNull();
  });

  it('refuses anything that reads live data, a viewer, or writes', () => {
    // A field resolver that is not declared (the order book is live).
    expect(plan('{ market(venue: venue_a, marketId: "m") { orderBook { bids { price } } } }')).toBeNull();
    // A root field that is not declared (it reads the viewer).
    expect(plan('{ events(page: 1) { total } notifications { total } }')).toBeNull();
    // Hidden in a fragment.
    expect(
      plan('{ ...F } fragment F on Query { market(venue: venue_a, marketId: "m") { chart { interval } } }'),
    ).toBeNull();
    expect(plan('mutation { syncCatalog { events } }')).toBeNull();
    expect(plan('subscription { feed { id } }')).toBeNull();
  });

  it('leaves field resolvers their resolvers and gives plain fields graphql’s property read', async () => {
    const schema = await getSchema();
    const event = schema.getType('Event');
    if (!isObjectType(event)) throw new Error('Event is an object type');
    expect(event.getFields().markets.resolve).toBeInstanceOf(Function);
    expect(event.getFields().title.resolve).toBeUndefined();
    // Root fields keep theirs (they are the resolvers).
    expect(schema.getQueryType()!.getFields().events.resolve).toBeInstanceOf(Function);
  });
});

describe('public reads: the cache', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ ...NO_BACKGROUND_TIMERS });
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers a repeated public read without SQL, and reads again after the catalog changes', async () => {
    const first = await gql<{ events: { data: { id: string; title: string }[] } }>(app, PAGE);
    expect(first.body.errors).toBeUndefined();
    const id = first.body.data!.events.data[0].id;

    const before = app.services.db.queryCount();
    const again = await gql(app, PAGE);
    expect(app.services.db.queryCount()).toBe(before);
    expect(again.text).toBe(first.text);

    await app.services.db.prisma.coreEvent.update({ where: { id }, data: { title: 'Renamed by the catalog' } });
    // Without the catalog's message the answer stands (the memos' contract)...
    expect((await gql(app, PAGE)).text).toBe(first.text);
    // ...and with it, every process reads again.
    await app.services.infra.pubsub.publish(CATALOG_CHANGED_TOPIC, { at: Date.now() });
    let title = '';
    for (let i = 0; i < 100 && title !== 'Renamed by the catalog'; i += 1) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      const r = await gql<{ events: { data: { id: string; title: string }[] } }>(app, PAGE);
      title = r.body.data!.events.data.find((e) => e.id === id)?.title ?? '';
    }
    expect(title).toBe('Renamed by the catalog');
  });

  it('does not keep errors, and still refuses bad arguments', async () => {
    const missing = '{ event(ref: "no-such-event") { id } }';
    expect((await gql(app, missing)).body.errors![0].extensions.code).toBe('not_found');
    const before = app.services.db.queryCount();
    expect((await gql(app, missing)).body.errors![0].extensions.code).toBe('not_found');
    expect(app.services.db.queryCount()).toBeGreaterThan(before);

    const bad = await gql(app, '{ events(page: 0) { total } }');
    expect(bad.body.errors![0]).toMatchObject({ extensions: { code: 'bad_request' } });
  });

  it('executes every time a query that also reads the viewer', async () => {
    const mixed = '{ events(page: 1, pageSize: 1) { total } notifications { total } }';
    const headers = await app.bearer('public-reads-user');
    expect((await gql(app, mixed, undefined, headers)).body.errors).toBeUndefined();
    const before = app.services.db.queryCount();
    expect((await gql(app, mixed, undefined, headers)).body.errors).toBeUndefined();
    expect(app.services.db.queryCount()).toBeGreaterThan(before);
  });
});
