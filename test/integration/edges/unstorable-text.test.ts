import { bearer, http, startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';

/**
 * Text PostgreSQL cannot store (NUL, lone surrogates) is refused before the
 * database on every path, query and body field (REST) and every argument
 * (GraphQL): 400 naming the field, or 404 for a path id no resource can have.
 */
let app: TestApp;
let token: string;
let slug: string;
beforeAll(async () => {
  app = await startTestApp();
  token = await app.token('nul-user');
  slug = app.services.world.coreEvents[2].slug;
});
afterAll(async () => {
  await app.close();
});

const message = (r: { body: unknown }) => (r.body as { message: string }).message;

describe('REST', () => {
  it.each([
    '/api/events/a%00b',
    '/api/events/a%00b/comments',
    '/api/comments/a%00b/replies',
    '/api/traders/venue_a/%00',
  ])('a path id with NUL or invalid text is a 404 with the error body: %s', async (path) => {
    const r = await http(`${app.url}${path}`);
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ error: 'not_found', message: expect.any(String) });
  });

  it('a path whose escapes are not UTF-8 (a lone surrogate) is a 400 with the error body', async () => {
    const r = await http(`${app.url}/api/events/%ED%A0%80x`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'bad_request', message: expect.any(String) });
  });

  it('a path id with NUL where the route documents no 404 is a 400 naming the parameter', async () => {
    const r = await http(`${app.url}/api/follows/venue_a/a%00b`, { method: 'DELETE', headers: bearer(token) });
    expect(r.status).toBe(400);
    expect(message(r)).toMatch(/^traderId: must not contain NUL characters/);
  });

  it('a query value with NUL is a 400 naming the field', async () => {
    const r = await http(`${app.url}/api/events/discover?search=a%00b`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'bad_request' });
    expect(message(r)).toMatch(/^search: must not contain NUL characters/);
  });

  it('a body field with NUL or a lone surrogate is a 400 naming the field, before anything is stored', async () => {
    const nul = await http(`${app.url}/api/events/${slug}/comments`, {
      method: 'POST',
      headers: bearer(token),
      json: { body: 'hi\u0000there' },
    });
    expect(nul.status).toBe(400);
    expect(message(nul)).toMatch(/^body: must not contain NUL characters/);
    const surrogate = await http(`${app.url}/api/events/${slug}/comments`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: '{"body":"hi \\ud800 there"}',
    });
    expect(surrogate.status).toBe(400);
    expect(message(surrogate)).toMatch(/^body: must be well-formed Unicode text/);
    const nestedKey = await http(`${app.url}/route`, {
      method: 'POST',
      json: { coreId: 'x', userId: 'u', accountId: 'a', extra: { deep: ['ok', 'n\u0000'] } },
    });
    expect(nestedKey.status).toBe(400);
    expect(message(nestedKey)).toMatch(/^extra\.deep\.1: must not contain NUL characters/);
    const page = await http(`${app.url}/api/events/${slug}/comments`);
    expect((page.body as { total: number }).total).toBe(0);
  });

  it('still accepts text with NUL-free Unicode, surrogate pairs included', async () => {
    const r = await http(`${app.url}/api/events/${slug}/comments`, {
      method: 'POST',
      headers: bearer(token),
      json: { body: 'ok 🎉 ünïcödé' },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ body: 'ok 🎉 ünïcödé' });
  });
});

describe('GraphQL', () => {
  it('a scalar argument with NUL is a bad_request naming the argument', async () => {
    const r = await gql(app, 'query($s: String!) { event(ref: $s) { id } }', { s: 'a\u0000b' });
    expect(r.body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^ref: must not contain NUL characters/),
      extensions: { code: 'bad_request' },
    });
  });

  it('an input field with a lone surrogate is a bad_request naming the field', async () => {
    const r = await gql(app, 'mutation($i: RouteInput!) { createRoute(input: $i) { id } }', {
      i: { coreId: 'x\udc00', userId: 'u', accountId: 'a' },
    });
    expect(r.body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^coreId: must be well-formed Unicode text/),
      extensions: { code: 'bad_request' },
    });
  });
});
