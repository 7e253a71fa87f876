import type { ListEventsQuery } from '../../../schema/generated/operations';
import { serverAudits } from 'graphql-http';
import { http, NO_BACKGROUND_TIMERS, startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';
import { EventsService } from '../../../src/modules/events/events.service';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ...NO_BACKGROUND_TIMERS }); // SQL is counted: no timer's query in between
});
afterAll(async () => {
  await app.close();
});

describe('graphql-http server audits against /graphql', () => {
  // A MUST failure is an `error` and fails the suite. Apollo's CSRF prevention
  // stays on, so GETs without a preflight header draw `notice`s, and a few
  // 400-vs-200 nuances draw `warn`s: both are reported, not failed.
  const tally: Record<string, number> = {};
  afterAll(() => process.stdout.write(`graphql-http audits: ${JSON.stringify(tally)}\n`));
  for (const audit of serverAudits({ url: () => `${app.url}/graphql`, fetchFn: fetch })) {
    it(`${audit.name}`, async () => {
      const result = await audit.fn();
      tally[result.status] = (tally[result.status] ?? 0) + 1;
      if (result.status === 'error') throw new Error(result.reason);
      expect(['ok', 'warn', 'notice']).toContain(result.status);
    });
  }
});

describe('GraphQL errors', () => {
  it('carries the error-table code in extensions.code and names the field on bad arguments', async () => {
    const r = await gql(app, '{ events(page: 0) { total } }');
    expect(r.status).toBe(200);
    expect(r.body.errors![0].extensions.code).toBe('bad_request');
    expect(r.body.errors![0].message).toMatch(/^page: /);
  });

  it('an operation name that picks no operation of the document is a 400, not a 500', async () => {
    const post = (body: unknown) => http(`${app.url}/graphql`, { method: 'POST', json: body });
    const empty = await post({ query: '{ __typename }', operationName: '' });
    expect({ status: empty.status, body: empty.body }).toEqual({
      status: 400,
      body: { errors: [{ message: 'Unknown operation named "".', extensions: { code: 'bad_request' } }] },
    });
    expect((await post({ query: 'query A { __typename }', operationName: 'B' })).status).toBe(400);
    const unnamed = await post({ query: 'query A { __typename } query B { __typename }' });
    expect(unnamed.status).toBe(400);
    expect(await post({ query: 'query A { __typename } query B { __typename }', operationName: 'B' })).toMatchObject({
      status: 200,
      body: { data: { __typename: 'Query' } },
    });
  });

  it('maps not found to not_found', async () => {
    const r = await gql(app, '{ event(ref: "nope") { id } }');
    expect(r.body.errors![0].extensions.code).toBe('not_found');
  });

  it('answers the same data as the REST route (same resolvers)', async () => {
    // An ad hoc selection (a part of ListEvents): its result type is written here.
    const viaGraphql = await gql<{ events: { total: number; data: { id: string; markets: unknown[] }[] } }>(
      app,
      '{ events(page: 2, pageSize: 7) { total page pageSize data { id slug markets { venue marketId yesPrice } } } }',
    );
    const rest = await http(`${app.url}/api/events?page=2&pageSize=7`);
    const g = viaGraphql.body.data!.events;
    const r = rest.body as ListEventsQuery['events'];
    expect(g.total).toBe(r.total);
    expect(g.data).toEqual(
      r.data.map((e) => ({
        id: e.id,
        slug: e.slug,
        markets: e.markets.map(({ venue, marketId, yesPrice }) => ({ venue, marketId, yesPrice })),
      })),
    );
  });

  it('loads markets of a page of events in one batched query (DataLoader)', async () => {
    const q = '{ events(pageSize: 50) { data { id markets { marketId } } } }';
    app.services.get(EventsService).invalidate(); // measure the database path, not the memo
    const before = app.services.db.queryCount();
    await gql(app, q);
    const fifty = app.services.db.queryCount() - before;
    app.services.get(EventsService).invalidate();
    const before2 = app.services.db.queryCount();
    await gql(app, q.replace('50', '5'));
    const five = app.services.db.queryCount() - before2;
    expect(fifty).toBe(five);
  });

  it('refuses the admin mutation without X-Admin-Token', async () => {
    const r = await gql(app, 'mutation { syncCatalog { events } }');
    expect(r.body.errors![0].extensions.code).toBe('unauthorized');
  });
});

describe('GraphiQL', () => {
  it('serves the IDE to browsers at GET /graphql with only same-origin assets', async () => {
    const r = await fetch(`${app.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).toContain('graphiql');
    expect(html).not.toMatch(/(src|href)="https?:\/\//);
  });
});
