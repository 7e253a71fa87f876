import { SignJWT } from 'jose';
import { bearer, http, type TestApp } from '../../support/app';
import type { FakeUpstream } from '../../support/fake-upstream';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { lastData, names, postStream } from '../../support/execution-stream';
import { fund } from '../../support/funding';
import { isOrderCall, startWithExecutionService } from '../execution/trading-helpers';

// Distinct user and wallet-auth secrets (as production requires): the key that verifies a token
// says its kind, so a wallet-auth token may omit token_use, as the interface document shows none.
const USER_SECRET = 'token-use-user-secret-0123456789abcdefgh';
const WALLET_SECRET = 'token-use-wallet-secret-0123456789abcdef';

let app: TestApp;
let exec: FakeUpstream;
const pinned = pinnedWorld();
const marketA = activeMatchedEvent(pinned.world).markets[0].venueMarketIds.venue_a!;
beforeAll(async () => {
  ({ app, exec } = await startWithExecutionService(pinned, {
    AUTH_JWT_SECRET: USER_SECRET,
    WALLET_AUTH_JWT_SECRET: WALLET_SECRET,
  }));
});
afterAll(async () => {
  await app.close();
  await exec.close();
});

/** A token as a client signs it by hand: sub, iat, exp, and only the claims given. */
function signed(secret: string, sub: string, claims: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(secret));
}

const me = async (token: string) => (await http(`${app.url}/auth/me`, { headers: bearer(token) })).status;
const liveBuy = (token: string, size = 1) =>
  postStream(
    `${app.url}/execute`,
    { mode: 'live', marketId: marketA, side: 'buy', outcome: 'yes', size },
    bearer(token),
  );

describe('token_use: what each verifier takes', () => {
  it('a wallet-auth token with only sub, iat and exp trades live: buy, position, sell', async () => {
    await fund(app, 'spec-client', 20);
    const token = await signed(WALLET_SECRET, 'spec-client');
    exec.handle((r) =>
      isOrderCall(r)
        ? { body: { id: `ex-u-${exec.requests.length}`, status: 'filled', fills: [{ price: 0.5, size: 2 }] } }
        : { status: 404 },
    );
    const before = exec.requests.length;
    const bought = await liveBuy(token, 2);
    expect(bought.status).toBe(200);
    expect(names(bought)).toEqual(['accepted', 'quote', 'submitted', 'fill', 'completed']);
    const sent = exec.requests.slice(before).find(isOrderCall)!;
    expect(sent.headers.authorization).toBe(`Bearer ${token}`);
    expect(sent.body).toMatchObject({ userId: 'spec-client' });
    const position = lastData(bought).position!;
    expect(position).toMatchObject({ status: 'open', size: 2 });

    // The position is the subject's (read with its user token), and sells live with the same wallet token.
    const listed = await http(`${app.url}/api/positions`, { headers: await app.bearer('spec-client') });
    expect(listed.status).toBe(200);
    expect((listed.body as { data: { id: string }[] }).data.map((p) => p.id)).toContain(position.id);
    const sold = await postStream(`${app.url}/api/positions/${position.id}/sell`, { mode: 'live' }, bearer(token));
    expect(sold.status).toBe(200);
    expect(lastData(sold).position).toMatchObject({ id: position.id, status: 'closed', size: 0 });
  });

  it('the wallet-auth verifier refuses a declared type other than wallet, and the user key', async () => {
    const before = exec.requests.length;
    for (const use of ['access', 'id', 'refresh', 'user', 'other']) {
      const r = await liveBuy(await signed(WALLET_SECRET, 'spec-client', { token_use: use }));
      expect([use, r.status, r.body?.message]).toEqual([use, 401, 'invalid wallet-auth token']);
    }
    // Untyped but signed with the user key: a user token, not a wallet-auth one.
    expect((await liveBuy(await signed(USER_SECRET, 'spec-client'))).status).toBe(401);
    expect(exec.requests.length).toBe(before);
    // And the untyped wallet-auth token is no user token.
    expect(await me(await signed(WALLET_SECRET, 'spec-client'))).toBe(401);
  });

  it('the user verifier takes no token_use or access, and refuses every other value', async () => {
    expect(await me(await signed(USER_SECRET, 'u-1'))).toBe(200);
    expect(await me(await signed(USER_SECRET, 'u-1', { token_use: 'access' }))).toBe(200);
    for (const use of ['id', 'refresh', 'wallet', 'user', 'other', '', null, 7]) {
      expect([use, await me(await signed(USER_SECRET, 'u-1', { token_use: use }))]).toEqual([use, 401]);
    }
    // The service's own user tokens declare access.
    expect(await me(await app.token('u-1'))).toBe(200);
  });
});
