import { createJwtVerifier } from '../../../src/auth/jwt-verifier';
import { RequestAuth, type HeaderTokens, type RequiredSecrets } from '../../../src/auth/request-auth';
import { signToken } from '../../../src/auth/token-signer';
import { bearer } from '../../support/http';

const user = { tokenUse: 'user' as const, secret: 'request-auth-user-secret-0123456789abcdef', algorithms: ['HS256'] };
const wallet = {
  tokenUse: 'wallet' as const,
  secret: 'request-auth-wallet-secret-0123456789abcd',
  algorithms: ['HS256'],
};
const verifiers = { user: createJwtVerifier(user, 'user'), wallet: createJwtVerifier(wallet, 'wallet-auth') };
const tokens = { admin: 'admin-token', rewardsAdmin: 'rewards-token', feedIngest: 'feed-token' };

function auth(headers: Record<string, string>, configured: { tokens?: HeaderTokens; secrets?: RequiredSecrets } = {}) {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return new RequestAuth(
    { authorization: lower.authorization, header: (n) => lower[n.toLowerCase()] },
    verifiers,
    configured.tokens ?? tokens,
    configured.secrets,
  );
}

describe('RequestAuth', () => {
  it('is anonymous without credentials; requireUser is then a 401', async () => {
    await expect(auth({}).optionalUser()).resolves.toBeNull();
    await expect(auth({}).requireUser()).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('verifies a user bearer token once per request', async () => {
    const a = auth(bearer(await signToken(user, 'u-1')));
    await expect(a.requireUser()).resolves.toMatchObject({ userId: 'u-1' });
    expect(a.optionalUser()).toBe(a.optionalUser());
  });

  it('refuses an invalid credential even where one is optional, and malformed headers', async () => {
    await expect(auth({ Authorization: 'Bearer nope' }).optionalUser()).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(auth({ Authorization: 'Basic dXNlcjpwYXNz' }).optionalUser()).rejects.toMatchObject({
      code: 'unauthorized',
    });
  });

  it('keeps user and wallet-auth tokens apart', async () => {
    const walletToken = await signToken(wallet, 'u-2');
    await expect(auth(bearer(walletToken)).requireWallet()).resolves.toMatchObject({
      userId: 'u-2',
    });
    await expect(auth(bearer(walletToken)).requireUser()).rejects.toMatchObject({
      code: 'unauthorized',
    });
    const userToken = await signToken(user, 'u-2');
    await expect(auth(bearer(userToken)).requireWallet()).rejects.toMatchObject({
      code: 'unauthorized',
    });
    await expect(auth({}).requireWallet()).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('keeps the two kinds apart by their token_use claim even when they share a secret', async () => {
    const shared = { user: { ...user }, wallet: { ...wallet, secret: user.secret } };
    const sharedVerifiers = {
      user: createJwtVerifier(shared.user, 'user'),
      wallet: createJwtVerifier(shared.wallet, 'wallet-auth'),
    };
    const as = (token: string) =>
      new RequestAuth({ authorization: `Bearer ${token}`, header: () => undefined }, sharedVerifiers, tokens);
    const walletToken = await signToken(shared.wallet, 'u-5');
    const userToken = await signToken(shared.user, 'u-5');
    await expect(as(walletToken).requireWallet()).resolves.toMatchObject({ userId: 'u-5' });
    await expect(as(walletToken).requireUser()).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(as(userToken).requireUser()).resolves.toMatchObject({ userId: 'u-5' });
    await expect(as(userToken).requireWallet()).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('requireAnyBearer takes either kind of token and refuses anything else with the user 401', async () => {
    await expect(auth(bearer(await signToken(user, 'u-3'))).requireAnyBearer()).resolves.toBeUndefined();
    await expect(auth(bearer(await signToken(wallet, 'u-3'))).requireAnyBearer()).resolves.toBeUndefined();
    await expect(auth({}).requireAnyBearer()).rejects.toMatchObject({
      code: 'unauthorized',
      message: 'a bearer token is required',
    });
    await expect(auth({ Authorization: 'Bearer nope' }).requireAnyBearer()).rejects.toMatchObject({
      code: 'unauthorized',
    });
  });

  it('checks each header token against its own value', () => {
    expect(() => auth({ 'X-Admin-Token': 'admin-token' }).requireHeaderToken('admin')).not.toThrow();
    expect(() => auth({ 'X-Admin-Token': 'rewards-token' }).requireHeaderToken('admin')).toThrow(/x-admin-token/);
    expect(() => auth({ 'X-Rewards-Admin-Token': 'rewards-token' }).requireHeaderToken('rewardsAdmin')).not.toThrow();
    expect(() => auth({}).requireHeaderToken('feedIngest')).toThrow(/x-feed-ingest-token/);
  });

  it('an optional header token: 500 naming its setting when unset, else 401 when missing or wrong', () => {
    expect(() => auth({ 'X-Indexer-Secret': 'x' }).requireHeaderToken('indexer')).toThrow(
      expect.objectContaining({ code: 'internal', message: 'X-Indexer-Secret not configured' }),
    );
    const withIndexer = { tokens: { ...tokens, indexer: 'indexer-token' } };
    expect(() =>
      auth({ 'x-indexer-secret': 'indexer-token' }, withIndexer).requireHeaderToken('indexer'),
    ).not.toThrow();
    for (const headers of [{}, { 'X-Indexer-Secret': 'wrong' }] as Record<string, string>[]) {
      expect(() => auth(headers, withIndexer).requireHeaderToken('indexer')).toThrow(
        expect.objectContaining({ code: 'unauthorized', message: 'missing or invalid X-Indexer-Secret header' }),
      );
    }
  });

  it('requireConfigured: 500 naming no setting to the client (the cause, logged, names it)', () => {
    expect(() => auth({}).requireConfigured('payment')).toThrow(
      expect.objectContaining({
        code: 'internal',
        message: 'webhook secret not configured',
        cause: 'PAYMENT_WEBHOOK_SECRET is not set',
      }),
    );
    expect(() => auth({}, { secrets: { payment: 'whsec' } }).requireConfigured('payment')).not.toThrow();
  });
});
