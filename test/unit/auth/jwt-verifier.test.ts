import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, exportSPKI, generateKeyPair } from 'jose';
import { createJwtVerifier } from '../../../src/auth/jwt-verifier';
import { safeEqual } from '../../../src/auth/constant-time';
import { signToken } from '../../../src/auth/token-signer';
import { loadConfig } from '../../../src/config';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const ALL = ['HS256', 'ES256', 'RS256'];

describe('HS256 with a shared secret', () => {
  const cfg = { tokenUse: 'user' as const, secret: SECRET, algorithms: ALL };
  const verifier = createJwtVerifier(cfg, 'user');

  it('accepts a token it signed and returns the subject', async () => {
    const token = await signToken(cfg, 'user-1');
    await expect(verifier.verify(token)).resolves.toMatchObject({ subject: 'user-1' });
  });

  it('verifies a repeated token once, and refuses it once it has expired', async () => {
    const v = createJwtVerifier(cfg, 'user');
    const token = await signToken(cfg, 'user-2');
    const first = await v.verify(token);
    // Served from the verified tokens: the same result, not verified again.
    expect(await v.verify(token)).toBe(first);
    const exp = Math.floor(Date.now() / 1000) + 1;
    const brief = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u')
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(SECRET));
    await expect(v.verify(brief)).resolves.toMatchObject({ subject: 'u' });
    await new Promise((r) => setTimeout(r, exp * 1000 - Date.now() + 20));
    await expect(v.verify(brief)).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('refuses a wrong secret, an expired token, garbage and alg none', async () => {
    const other = await signToken({ ...cfg, secret: `${SECRET}-other` }, 'u');
    await expect(verifier.verify(other)).rejects.toMatchObject({ code: 'unauthorized' });
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(SECRET));
    await expect(verifier.verify(expired)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(verifier.verify('not.a.token')).rejects.toMatchObject({ code: 'unauthorized' });
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(
      JSON.stringify({ sub: 'u', exp: Math.floor(Date.now() / 1000) + 60 }),
    ).toString('base64url')}.`;
    await expect(verifier.verify(none)).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('checks issuer and audience when configured', async () => {
    const strict = { ...cfg, issuer: 'https://id.example', audience: 'api' };
    const v = createJwtVerifier(strict, 'user');
    await expect(v.verify(await signToken(strict, 'u'))).resolves.toMatchObject({ subject: 'u' });
    await expect(v.verify(await signToken({ ...strict, issuer: 'https://evil.example' }, 'u'))).rejects.toMatchObject({
      code: 'unauthorized',
    });
    await expect(v.verify(await signToken({ ...strict, audience: 'other' }, 'u'))).rejects.toMatchObject({
      code: 'unauthorized',
    });
  });

  it('requires exp: a token without one is refused, however valid otherwise', async () => {
    const noExp = await new SignJWT({ token_use: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u')
      .setIssuedAt()
      .sign(new TextEncoder().encode(SECRET));
    await expect(verifier.verify(noExp)).rejects.toMatchObject({ code: 'unauthorized' });
    const wallet = createJwtVerifier({ ...cfg, tokenUse: 'wallet' }, 'wallet-auth');
    const walletNoExp = await new SignJWT({ token_use: 'wallet' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u')
      .sign(new TextEncoder().encode(SECRET));
    await expect(wallet.verify(walletNoExp)).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('tells the token kinds apart by token_use, in both directions, with one shared secret', async () => {
    const walletCfg = { ...cfg, tokenUse: 'wallet' as const };
    const wallet = createJwtVerifier(walletCfg, 'wallet-auth');
    const userToken = await signToken(cfg, 'u');
    const walletToken = await signToken(walletCfg, 'u');
    await expect(verifier.verify(userToken)).resolves.toMatchObject({ claims: { token_use: 'access' } });
    await expect(wallet.verify(walletToken)).resolves.toMatchObject({ claims: { token_use: 'wallet' } });
    await expect(verifier.verify(walletToken)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(wallet.verify(userToken)).rejects.toMatchObject({ code: 'unauthorized' });
    // An identity provider's token without the claim (or with its own value) is a user token, never a wallet one.
    const idp = (claims: Record<string, unknown>) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('u')
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(SECRET));
    for (const claims of [{}, { token_use: 'access' }]) {
      await expect(verifier.verify(await idp(claims))).resolves.toMatchObject({ subject: 'u' });
      await expect(wallet.verify(await idp(claims))).rejects.toMatchObject({ code: 'unauthorized' });
    }
    // Only access tokens are user tokens: an ID token, a refresh token or any other declared type is refused.
    for (const use of ['id', 'refresh', 'user', 'other', null]) {
      await expect(verifier.verify(await idp({ token_use: use }))).rejects.toMatchObject({ code: 'unauthorized' });
    }
  });

  it('a wallet-auth verifier with keys of its own takes an untyped token, never another declared type', async () => {
    const wallet = createJwtVerifier({ ...cfg, tokenUse: 'wallet', acceptUntyped: true }, 'wallet-auth');
    const bare = (claims: Record<string, unknown>) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('w')
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(SECRET));
    await expect(wallet.verify(await bare({}))).resolves.toMatchObject({ subject: 'w' });
    await expect(wallet.verify(await bare({ token_use: 'wallet' }))).resolves.toMatchObject({ subject: 'w' });
    for (const use of ['access', 'id', 'refresh', 'user', null]) {
      await expect(wallet.verify(await bare({ token_use: use }))).rejects.toMatchObject({ code: 'unauthorized' });
    }
  });

  it('refuses HS256 when the allowlist excludes it', async () => {
    const v = createJwtVerifier({ ...cfg, algorithms: ['ES256'] }, 'user');
    await expect(v.verify(await signToken(cfg, 'u'))).rejects.toMatchObject({ code: 'unauthorized' });
  });
});

describe('untyped wallet-auth tokens: only with key material of their own', () => {
  const base = { NODE_ENV: 'test', AUTH_JWT_SECRET: SECRET, WALLET_AUTH_JWT_SECRET: `${SECRET}-wallet` };

  it('distinct secrets: the wallet-auth verifier takes an untyped token signed with its key', async () => {
    const config = loadConfig(base);
    expect(config.auth.wallet.acceptUntyped).toBe(true);
    const wallet = createJwtVerifier(config.auth.wallet, 'wallet-auth');
    const untyped = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('w')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(base.WALLET_AUTH_JWT_SECRET));
    await expect(wallet.verify(untyped)).resolves.toMatchObject({ subject: 'w' });
  });

  it('a shared secret or a shared JWKS URL: an untyped token is a user token only', async () => {
    const shared = loadConfig({ ...base, WALLET_AUTH_JWT_SECRET: SECRET });
    expect(shared.auth.wallet.acceptUntyped).toBe(false);
    const untyped = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('w')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(SECRET));
    await expect(createJwtVerifier(shared.auth.wallet, 'wallet-auth').verify(untyped)).rejects.toMatchObject({
      code: 'unauthorized',
    });
    await expect(createJwtVerifier(shared.auth.user, 'user').verify(untyped)).resolves.toMatchObject({
      subject: 'w',
    });
    const jwks = 'https://id.example/.well-known/jwks.json';
    const sameJwks = loadConfig({
      NODE_ENV: 'test',
      AUTH_JWKS_URL: jwks,
      WALLET_AUTH_JWKS_URL: 'https://ID.example/.well-known/jwks.json',
    });
    expect(sameJwks.auth.wallet.acceptUntyped).toBe(false);
    const ownJwks = loadConfig({
      NODE_ENV: 'test',
      AUTH_JWKS_URL: jwks,
      WALLET_AUTH_JWKS_URL: 'https://wallet-id.example/jwks.json',
    });
    expect(ownJwks.auth.wallet.acceptUntyped).toBe(true);
  });
});

describe('ES256 through a JWKS URL and RS256 through a PEM key', () => {
  let server: http.Server;
  let jwksUrl: string;
  type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
  let es: KeyPair;
  let rs: KeyPair;

  beforeAll(async () => {
    es = await generateKeyPair('ES256');
    rs = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(es.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const sign = (key: KeyPair['privateKey'], alg: string, kid?: string) =>
    new SignJWT({})
      .setProtectedHeader({ alg, ...(kid && { kid }) })
      .setSubject('u-es')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);

  it('verifies ES256 tokens against the JWKS', async () => {
    const v = createJwtVerifier({ tokenUse: 'user', jwksUrl, algorithms: ALL }, 'user');
    await expect(v.verify(await sign(es.privateKey, 'ES256', 'k1'))).resolves.toMatchObject({ subject: 'u-es' });
    const stranger = await generateKeyPair('ES256');
    await expect(v.verify(await sign(stranger.privateKey, 'ES256', 'k1'))).rejects.toMatchObject({
      code: 'unauthorized',
    });
  });

  it('verifies RS256 tokens against a PEM public key, and refuses HS256 signed with that key text', async () => {
    const pem = await exportSPKI(rs.publicKey);
    const v = createJwtVerifier({ tokenUse: 'user', publicKey: pem, algorithms: ALL }, 'user');
    await expect(v.verify(await sign(rs.privateKey, 'RS256'))).resolves.toMatchObject({ subject: 'u-es' });
    // Algorithm confusion: an HS256 token keyed with the public key text.
    const confused = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('attacker')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(pem));
    await expect(v.verify(confused)).rejects.toMatchObject({ code: 'unauthorized' });
  });
});

describe('safeEqual', () => {
  it('compares in constant time and refuses missing values', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual(undefined, 'abc')).toBe(false);
    expect(safeEqual('', '')).toBe(false);
  });
});
