import { http, NO_BACKGROUND_TIMERS, startTestApp, type TestApp } from '../../support/app';
import { gql, type GraphqlBody } from '../../support/graphql';

/** The Done-when bombs: aliases, depth, and aliased big pages. */
const aliasBomb = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }`;
const depthBomb = (levels: number) => {
  let inner = 'id';
  for (let i = 0; i < levels; i += 1)
    inner = i % 2 === 0 ? `markets { event { ${inner} } }` : `markets { event { id ${inner} } }`;
  return `{ events(pageSize: 1) { data { ${inner} } } }`;
};
const pagesBomb = (n: number) =>
  `{ ${Array.from({ length: n }, (_, i) => `e${i}: events(pageSize: 100) { data { id } }`).join(' ')} }`;
/** Under every limit but cost: a page of events whose every market's venue book is read. */
const COSTLY = '{ events(pageSize: 100) { data { markets { orderBook { bids { price } } } } } }';
const ALIVE = '{ health { status } }';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ...NO_BACKGROUND_TIMERS }); // SQL is counted: no timer's query in between
});
afterAll(async () => {
  await app.close();
});

/** A 400 whose GraphQL error is `bad_request` with a message that starts with one of the limits. */
function expectRefused(r: { status: number; body: unknown }, ...limits: string[]): void {
  expect(r.status).toBe(400);
  const body = r.body as GraphqlBody;
  expect(body.errors).toHaveLength(1);
  expect(body.errors![0].extensions.code).toBe('bad_request');
  expect(body.errors![0].message).toMatch(new RegExp(`^(${limits.join('|')}): `));
}

async function expectAlive(): Promise<void> {
  const r = await gql(app, ALIVE);
  expect(r.status).toBe(200);
  expect(r.body.errors).toBeUndefined();
}

describe('/graphql limits', () => {
  it('refuses an alias bomb of 2,000 aliases with a 400 naming the limit, and still answers', async () => {
    // 2,000 aliases are past the token bound before they are past the alias bound.
    expectRefused(await gql(app, aliasBomb(2000)), 'maxTokens', 'maxAliases');
    expectRefused(await gql(app, aliasBomb(31)), 'maxAliases');
    expect((await gql(app, aliasBomb(30))).status).toBe(200);
    await expectAlive();
  });

  it('refuses a depth bomb of 40 levels under events(pageSize: 1)', async () => {
    const r = await gql(app, depthBomb(40));
    expectRefused(r, 'maxDepth');
    expect(r.body.errors![0].message).toMatch(/depth limit of 12/);
    await expectAlive();
  });

  it('refuses 300 aliased events(pageSize: 100)', async () => {
    expectRefused(await gql(app, pagesBomb(300)), 'maxTokens', 'maxAliases', 'maxCost');
    await expectAlive();
  });

  it('refuses an operation over the cost limit before any resolver runs', async () => {
    const before = app.services.db.queryCount();
    const r = await gql(app, COSTLY);
    expectRefused(r, 'maxCost');
    expect(r.body.errors![0].message).toMatch(/cost limit of 10000 exceeded, found \d+/);
    expect(app.services.db.queryCount()).toBe(before);
    // The cost follows the variables: the same document with a small page passes.
    const q = 'query($n: Int!) { events(pageSize: $n) { data { markets { orderBook { bids { price } } } } } }';
    expectRefused(await gql(app, q, { n: 100 }), 'maxCost');
    const small = await gql(app, q, { n: 1 });
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
  });

  it('refuses too many directives', async () => {
    const many = `{ eventCategories { ${Array.from({ length: 21 }, () => 'category @include(if: true)').join(' ')} } }`;
    expectRefused(await gql(app, many), 'maxDirectives');
  });

  it('does not count introspection against the limits (GraphiQL loads its schema)', async () => {
    const r = await gql(
      app,
      '{ __schema { types { name fields { name type { name ofType { name ofType { name ofType { name } } } } } } } }',
    );
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
  });
});

describe('/graphql/stream limits', () => {
  /** A distinct-connection graphql-sse request (POST, Accept: text/event-stream). */
  const stream = (query: string, variables?: Record<string, unknown>) =>
    http(`${app.url}/graphql/stream`, {
      method: 'POST',
      headers: { accept: 'text/event-stream' },
      json: { query, variables },
    });

  it('answers each bomb with a 400 naming the limit, before a stream opens', async () => {
    expectRefused(await stream(aliasBomb(2000)), 'maxTokens', 'maxAliases');
    expectRefused(await stream(aliasBomb(31)), 'maxAliases');
    expectRefused(await stream(depthBomb(40)), 'maxDepth');
    expectRefused(await stream(pagesBomb(300)), 'maxTokens', 'maxAliases', 'maxCost');
    expectRefused(await stream(COSTLY), 'maxCost');
    await expectAlive();
  });

  it('still runs an operation under the limits', async () => {
    const r = await stream(ALIVE);
    expect(r.status).toBe(200);
    expect(r.text).toContain('"status"');
  });
});

describe('REST adapter limits', () => {
  let tight: TestApp;
  beforeAll(async () => {
    tight = await startTestApp({ GRAPHQL_MAX_COST: '50', GRAPHQL_MAX_DEPTH: '3' });
  });
  afterAll(async () => {
    await tight.close();
  });

  it('answers a route over the limits with the documented error body naming the limit', async () => {
    const cost = await http(`${tight.url}/api/events?pageSize=100`);
    expect(cost.status).toBe(400);
    expect(cost.body).toEqual({ error: 'bad_request', message: expect.stringMatching(/^maxDepth: /) as string });
    expect((await http(`${tight.url}/health`)).status).toBe(200);
  });

  it('applies the cost limit with the request variables', async () => {
    const costly = await startTestApp({ GRAPHQL_MAX_COST: '50' }, {}, { shareWith: tight });
    try {
      const big = await http(`${costly.url}/api/events?pageSize=100`);
      expect(big.status).toBe(400);
      expect(big.body).toEqual({ error: 'bad_request', message: expect.stringMatching(/^maxCost: /) as string });
      expect((await http(`${costly.url}/api/events?pageSize=2`)).status).toBe(200);
    } finally {
      await costly.close();
    }
  });
});

describe('introspection and GraphiQL switches', () => {
  it('turns both off when asked', async () => {
    const off = await startTestApp({ GRAPHQL_INTROSPECTION: 'false', GRAPHIQL: 'false' });
    try {
      const r = await gql(off, '{ __schema { queryType { name } } }');
      expect(r.status).toBe(400);
      expect(r.body.errors![0].extensions.code).toBe('bad_request');
      expect(r.body.errors![0].message).toMatch(/introspection/i);
      const viaStream = await http(`${off.url}/graphql/stream`, {
        method: 'POST',
        headers: { accept: 'text/event-stream' },
        json: { query: '{ __type(name: "Query") { name } }' },
      });
      expect(viaStream.text).toMatch(/introspection/i);
      const page = await http(`${off.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(page.text).not.toContain('<div id="graphiql">');
      // Everything else still works.
      expect((await gql(off, ALIVE)).body.errors).toBeUndefined();
    } finally {
      await off.close();
    }
  });

  it('serves both by default outside production', async () => {
    const r = await gql(app, '{ __schema { queryType { name } } }');
    expect(r.body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
    const page = await http(`${app.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="graphiql">');
  });
});
