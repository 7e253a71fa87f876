import { CATALOG_CHANGED_TOPIC } from '../../../src/modules/events';
import { NO_BACKGROUND_TIMERS, startTestApp, type TestApp } from '../../support/app';

/** One raw answer: status, headers without the per-request ones, body text. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  requestId: string | null;
  text: string;
}

async function ask(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!['x-request-id', 'date', 'connection', 'keep-alive'].includes(name)) headers[name] = value;
  });
  return { status: res.status, headers, requestId: res.headers.get('x-request-id'), text: await res.text() };
}

const PAGE_PATH = '/api/events?page=1&pageSize=3';
const QUERY = JSON.stringify({ query: '{ events(page: 1, pageSize: 3) { data { id title } total } }' });
const JSON_TYPE = { 'content-type': 'application/json' };

describe('repeated public reads are answered before Express, exactly as Express answers them', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ ...NO_BACKGROUND_TIMERS, CORS_ORIGINS: 'https://app.example' });
  });
  afterAll(async () => {
    await app.close();
  });
  const served = () => app.running.fastPath.written;
  const postGraphql = (body: string, headers: Record<string, string> = {}) =>
    ask(`${app.url}/graphql`, { method: 'POST', headers: { ...JSON_TYPE, ...headers }, body });

  it('repeats a REST page with the same status, headers and bytes, and a request id of its own', async () => {
    const first = await ask(`${app.url}${PAGE_PATH}`);
    expect(first.status).toBe(200);
    const before = served();
    const queries = app.services.db.queryCount();
    const again = await ask(`${app.url}${PAGE_PATH}`, { headers: { 'x-request-id': 'caller-chosen-id' } });
    expect(served()).toBe(before + 1);
    expect(app.services.db.queryCount()).toBe(queries);
    expect(again).toEqual({ ...first, requestId: 'caller-chosen-id' });
    const third = await ask(`${app.url}${PAGE_PATH}`);
    expect(third.requestId).not.toBe(first.requestId);
    expect(served()).toBe(before + 2);
  });

  it('repeats a GraphQL public read posted with the same body', async () => {
    const first = await postGraphql(QUERY);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text).data.events.data).toHaveLength(3);
    const before = served();
    const again = await postGraphql(QUERY);
    expect(served()).toBe(before + 1);
    expect(again).toEqual({ ...first, requestId: again.requestId });
    // The media type Apollo answers in follows Accept: another Accept is another request.
    const typed = await postGraphql(QUERY, { accept: 'application/graphql-response+json' });
    expect(typed.headers['content-type']).toContain('application/graphql-response+json');
    expect(served()).toBe(before + 1);
    // Another body is another request.
    const other = await postGraphql(JSON.stringify({ query: '{ events(page: 1, pageSize: 2) { total } }' }));
    expect(other.status).toBe(200);
    expect(served()).toBe(before + 1);
  });

  it('counts and logs repeated requests like any other', async () => {
    const metricsText = async () => (await ask(`${app.url}/metrics`)).text;
    const count = (text: string) =>
      Number(/http_requests_total\{method="GET",route="\/api\/events",status="200"\} (\d+)/.exec(text)?.[1] ?? 0);
    await ask(`${app.url}${PAGE_PATH}`);
    const before = count(await metricsText());
    const repeatsBefore = served();
    await ask(`${app.url}${PAGE_PATH}`);
    await ask(`${app.url}${PAGE_PATH}`);
    expect(served()).toBe(repeatsBefore + 2);
    expect(count(await metricsText())).toBe(before + 2);
  });

  it('reads again once the catalog changes, and repeats the new answer', async () => {
    const first = await ask(`${app.url}${PAGE_PATH}`);
    const firstGraphql = await postGraphql(QUERY);
    const id = JSON.parse(first.text).data[0].id as string;
    await app.services.db.prisma.coreEvent.update({ where: { id }, data: { title: 'Renamed before a repeat' } });
    await app.services.infra.pubsub.publish(CATALOG_CHANGED_TOPIC, { at: Date.now() });
    let rest = first;
    let graphql = firstGraphql;
    for (let i = 0; i < 100 && (rest.text === first.text || graphql.text === firstGraphql.text); i += 1) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      rest = await ask(`${app.url}${PAGE_PATH}`);
      graphql = await postGraphql(QUERY);
    }
    expect(rest.text).toContain('Renamed before a repeat');
    expect(graphql.text).toContain('Renamed before a repeat');
    expect(rest.headers.etag).not.toBe(first.headers.etag);
    const before = served();
    expect((await ask(`${app.url}${PAGE_PATH}`)).text).toBe(rest.text);
    expect((await postGraphql(QUERY)).text).toBe(graphql.text);
    expect(served()).toBe(before + 2);
  });

  it('leaves to Express whatever could change the answer: an origin, a condition, a credential, a scheme', async () => {
    await ask(`${app.url}${PAGE_PATH}`);
    await postGraphql(QUERY);
    const before = served();
    const cors = await ask(`${app.url}${PAGE_PATH}`, { headers: { origin: 'https://app.example' } });
    expect(cors.headers['access-control-allow-origin']).toBe('https://app.example');
    const first = await ask(`${app.url}${PAGE_PATH}`);
    const notModified = await ask(`${app.url}${PAGE_PATH}`, { headers: { 'if-none-match': first.headers.etag } });
    expect(notModified.status).toBe(304);
    const forwarded = await ask(`${app.url}${PAGE_PATH}`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(forwarded.status).toBe(200);
    const withKey = await postGraphql(QUERY, { ...(await app.bearer('repeat-answers-user')) });
    expect(withKey.status).toBe(200);
    const graphqlCors = await postGraphql(QUERY, { origin: 'https://app.example' });
    expect(graphqlCors.headers['access-control-allow-origin']).toBe('https://app.example');
    // Only the plain repeat of the page above came from here.
    expect(served()).toBe(before + 1);
  });

  it('hands a body it read to Express as the JSON body parser would have left it', async () => {
    // `if-modified-since` keeps a request away from the repeat path: the same body through Express's parser.
    const viaParser = { 'if-modified-since': 'Thu, 01 Jan 2026 00:00:00 GMT' };
    const bodies = [
      '{bad',
      '"a string"',
      '',
      '  \n{"query":"{ events(page: 1, pageSize: 1) { total } }"}',
      '\ufeff{"query":"{ events(page: 1, pageSize: 1) { total } }"}',
      '{"query":"{ events(page: 0) { total } }"}',
      '[{"query":"{ events(page: 1) { total } }"}]',
    ];
    for (const body of bodies) {
      const here = await postGraphql(body);
      const there = await postGraphql(body, viaParser);
      expect({ body, status: here.status, text: here.text }).toEqual({ body, status: there.status, text: there.text });
      expect(here.headers).toEqual(there.headers);
    }
  });

  it('finds a GraphQL answer by the operation its body names, and leaves other bodies to Express', async () => {
    const first = await postGraphql(QUERY);
    expect(first.status).toBe(200);
    const before = served();
    // The same query and variables in another layout: the same entry of the answer cache.
    const spaced = await postGraphql(`{ "query" : ${JSON.stringify(JSON.parse(QUERY).query)} , "variables": null }`);
    expect(spaced.text).toBe(first.text);
    expect(served()).toBe(before + 1);
    // A body naming more than the operation (a persisted query's extensions) is Apollo's to read.
    const extended = JSON.stringify({ ...JSON.parse(QUERY), extensions: {} });
    expect((await postGraphql(extended)).text).toBe(first.text);
    expect((await postGraphql(extended)).text).toBe(first.text);
    expect(served()).toBe(before + 1);
    // No operation name and an empty one are different requests: the empty one names no operation.
    const unnamed = await postGraphql(JSON.stringify({ query: '{ __typename }' }));
    expect(unnamed.status).toBe(200);
    await postGraphql(JSON.stringify({ query: '{ __typename }' }));
    const empty = await postGraphql(JSON.stringify({ query: '{ __typename }', operationName: '' }));
    expect(empty.status).toBe(400);
  });
});
