import { SignJWT } from 'jose';
import { bearer, http, type TestApp } from '../../support/app';
import type { FakeUpstream } from '../../support/fake-upstream';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { names, postStream } from '../../support/execution-stream';
import { fund } from '../../support/funding';
import { gql } from '../../support/graphql';
import { isOrderCall, startWithExecutionService } from '../execution/trading-helpers';

// One secret, issuer and audience for both kinds (allowed outside production, refused in it): only the
// token_use claim tells them apart, so nothing else can be what keeps them apart here.
const SHARED = 'one-secret-for-both-token-kinds-0123456789';
const ISS = 'https://id.test.example/';
const AUD = 'prediction-aggregator';

let app: TestApp;
let exec: FakeUpstream;
const pinned = pinnedWorld();
const marketA = activeMatchedEvent(pinned.world).markets[0].venueMarketIds.venue_a!;
beforeAll(async () => {
  ({ app, exec } = await startWithExecutionService(pinned, {
    AUTH_JWT_SECRET: SHARED,
    WALLET_AUTH_JWT_SECRET: SHARED,
    AUTH_JWT_ISSUER: ISS,
    AUTH_JWT_AUDIENCE: AUD,
  }));
  await fund(app, 'wendy', 10);
  await fund(app, 'forger', 10);
  exec.handle((r) =>
    isOrderCall(r)
      ? { body: { id: `ex-${exec.requests.length}`, status: 'rejected', reason: 'test' } }
      : { status: 404 },
  );
});
afterAll(async () => {
  await app.close();
  await exec.close();
});

/** A token signed with the shared secret, with exactly the claims given (no defaults). */
function forge(claims: Record<string, unknown>, opts: { exp?: boolean } = {}): Promise<string> {
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject('forger').setIssuedAt();
  if (opts.exp !== false) jwt = jwt.setExpirationTime('5m');
  return jwt.sign(new TextEncoder().encode(SHARED));
}

const me = (headers: Record<string, string>) => http(`${app.url}/auth/me`, { headers });
const liveOrder = (headers: Record<string, string>) =>
  postStream(`${app.url}/execute`, { mode: 'live', marketId: marketA, side: 'buy', outcome: 'yes', size: 1 }, headers);
const ME = 'query { me { userId } }';

describe('user and wallet-auth tokens', () => {
  it('a wallet-auth token is refused wherever a user token is needed (REST and GraphQL)', async () => {
    const wallet = await app.walletBearer('wendy');
    const r = await me(wallet);
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ error: 'unauthorized' });
    expect((await http(`${app.url}/api/portfolio`, { headers: wallet })).status).toBe(401);
    const g = await gql<{ me: { userId: string } | null }>(app, ME, {}, wallet);
    expect(g.body.data?.me ?? null).toBeNull();
    expect(g.body.errors?.[0].message).toMatch(/invalid user token/);
    // The same subject's user token is accepted there.
    const user = await me(await app.bearer('wendy'));
    expect(user.status).toBe(200);
    expect(user.body).toMatchObject({ userId: 'wendy' });
  });

  it('a user token is refused where the wallet-auth token is needed (live execution)', async () => {
    const before = exec.requests.length;
    const r = await liveOrder(await app.bearer('ursula'));
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ error: 'unauthorized' });
    expect(exec.requests.length).toBe(before);
  });

  it('the wallet-auth token acts for its subject: the execution service gets that user id with the token', async () => {
    const token = await app.walletToken('wendy');
    const before = exec.requests.length;
    const r = await liveOrder(bearer(token));
    expect(r.status).toBe(200);
    expect(names(r)[0]).toBe('accepted');
    const sent = exec.requests.slice(before).find(isOrderCall)!;
    expect(sent.headers.authorization).toBe(`Bearer ${token}`);
    expect(sent.body).toMatchObject({ userId: 'wendy' });
    const order = await app.services.db.prisma.order.findFirst({ where: { userId: 'wendy' } });
    expect(order).not.toBeNull();
  });

  it('refuses tokens without exp, of another issuer or audience, or of no declared kind for live', async () => {
    const good = { iss: ISS, aud: AUD };
    // Sanity: the forged shapes pass when complete.
    expect((await me(bearer(await forge({ ...good, token_use: 'access' })))).status).toBe(200);
    expect((await me(bearer(await forge({ ...good, token_use: 'access' }, { exp: false })))).status).toBe(401);
    expect((await me(bearer(await forge({ iss: 'https://evil.example/', aud: AUD })))).status).toBe(401);
    expect((await me(bearer(await forge({ iss: ISS, aud: 'other-api' })))).status).toBe(401);
    expect((await me(bearer(await forge({ ...good, token_use: 'wallet' })))).status).toBe(401);
    // A user token is an access token: an ID, refresh or other declared type is not.
    for (const use of ['id', 'refresh', 'user', 'other']) {
      expect([use, (await me(bearer(await forge({ ...good, token_use: use })))).status]).toEqual([use, 401]);
    }
    expect((await me(bearer(await forge(good)))).status).toBe(200);

    const before = exec.requests.length;
    expect((await liveOrder(bearer(await forge({ ...good, token_use: 'wallet' }, { exp: false })))).status).toBe(401);
    // With one secret for both kinds, an untyped token is a user token only: never a wallet-auth one.
    expect((await liveOrder(bearer(await forge(good)))).status).toBe(401);
    expect((await liveOrder(bearer(await forge({ ...good, token_use: 'access' })))).status).toBe(401);
    expect(exec.requests.length).toBe(before);
    expect((await liveOrder(bearer(await forge({ ...good, token_use: 'wallet' })))).status).toBe(200);
  });
});
