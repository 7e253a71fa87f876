import { base58 } from '@scure/base';
import type { AccountWalletFieldsFragment, MeQuery, SetupAccountMutation } from '../../../schema/generated/operations';
import { toChecksumAddress } from '../../../src/modules/wallets/chain-address';
import { http, startTestApp, type TestApp } from '../../support/app';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream';
import { gql } from '../../support/graphql';

type Wallet = AccountWalletFieldsFragment;
type Account = SetupAccountMutation['setupAccount'];

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ AUTH_SETUP_RATE_LIMIT: '5', AUTH_ME_RATE_LIMIT: '5' });
});
afterAll(async () => {
  await app.close();
});

const call = (method: 'GET' | 'POST', path: string, sub?: string) =>
  sub ? app.as(sub).request(method, path) : http(`${app.url}${path}`, { method });

function expectProvisioned(wallets: Wallet[]): void {
  expect(wallets.map((w) => [w.chain, w.kind]).sort()).toEqual([
    ['polygon', 'provisioned'],
    ['solana', 'provisioned'],
  ]);
  const polygon = wallets.find((w) => w.chain === 'polygon')!;
  expect(polygon.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  expect(toChecksumAddress(polygon.address)).toBe(polygon.address);
  const solana = wallets.find((w) => w.chain === 'solana')!;
  expect(base58.decode(solana.address)).toHaveLength(32);
}

describe('POST /auth/setup', () => {
  it('401 without a bearer token, or with a bad one', async () => {
    expect((await call('POST', '/auth/setup')).status).toBe(401);
    const r = await http(`${app.url}/auth/setup`, { method: 'POST', headers: { authorization: 'Bearer nope' } });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ error: 'unauthorized' });
  });

  it('creates the user and one provisioned wallet per chain, then is idempotent', async () => {
    const first = await call('POST', '/auth/setup', 'alice');
    expect(first.status).toBe(200);
    const a = first.body as Account;
    expect(a).toMatchObject({ userId: 'alice', created: true });
    expect(typeof a.createdAt).toBe('string');
    expectProvisioned(a.wallets);
    const again = (await call('POST', '/auth/setup', 'alice')).body as Account;
    expect(again.created).toBe(false);
    expect(again.wallets).toEqual(a.wallets);
    expect(await app.services.db.prisma.wallet.count({ where: { userId: 'alice' } })).toBe(2);
  });

  it('concurrent first calls converge on one user and two wallets', async () => {
    const rs = await Promise.all([1, 2, 3, 4].map(() => call('POST', '/auth/setup', 'racer')));
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(rs.filter((r) => (r.body as Account).created)).toHaveLength(1);
    const addresses = new Set(rs.flatMap((r) => (r.body as Account).wallets.map((w) => w.address)));
    expect(addresses.size).toBe(2);
    expect(await app.services.db.prisma.user.count({ where: { id: 'racer' } })).toBe(1);
    expect(await app.services.db.prisma.wallet.count({ where: { userId: 'racer' } })).toBe(2);
  });

  it('different users get different addresses', async () => {
    const b = (await call('POST', '/auth/setup', 'bob')).body as Account;
    const c = (await call('POST', '/auth/setup', 'carol')).body as Account;
    expectProvisioned(b.wallets);
    const mine = new Set(b.wallets.map((w) => w.address));
    expect(c.wallets.some((w) => mine.has(w.address))).toBe(false);
  });

  it('429 per user beyond the limit, with Retry-After; other users unaffected', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await call('POST', '/auth/setup', 'eager')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await call('POST', '/auth/setup', 'eager');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: 'rate_limited' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call('POST', '/auth/setup', 'patient')).status).toBe(200);
  });
});

describe('GET /auth/me', () => {
  it('401 without a token', async () => {
    expect((await call('GET', '/auth/me')).status).toBe(401);
  });

  it('before onboarding: the id, no wallets; after: the wallets', async () => {
    const before = (await call('GET', '/auth/me', 'newbie')).body as MeQuery['me'];
    expect(before).toEqual({ userId: 'newbie', createdAt: null, wallets: [] });
    const setup = (await call('POST', '/auth/setup', 'newbie')).body as Account;
    const after = (await call('GET', '/auth/me', 'newbie')).body as MeQuery['me'];
    expect(after).toEqual({ userId: 'newbie', createdAt: setup.createdAt, wallets: setup.wallets });
  });

  it('429 per user beyond the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await call('GET', '/auth/me', 'curious')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('answers on GraphQL too', async () => {
    const r = await gql(app, '{ me { userId wallets { chain kind } } }', undefined, await app.bearer('alice'));
    expect(r.body).toMatchObject({
      data: { me: { userId: 'alice', wallets: expect.arrayContaining([{ chain: 'polygon', kind: 'provisioned' }]) } },
    });
  });
});

describe('wallet provider over HTTP', () => {
  let upstream: FakeUpstream;
  let remote: TestApp;
  const addresses: Record<string, string> = {
    polygon: '0x52908400098527886E0F7030069857D2E4169EE7',
    solana: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  };
  beforeAll(async () => {
    upstream = await startFakeUpstream((req) => ({
      body: { address: addresses[(req.body as { chain: string }).chain] },
    }));
    remote = await startTestApp({ WALLET_PROVIDER_URL: `${upstream.url}/`, WALLET_PROVIDER_API_KEY: 'wp-key' });
  });
  afterAll(async () => {
    await remote.close();
    await upstream.close();
  });

  const setup = (sub: string) => remote.as(sub).post('/auth/setup');

  it('provisions through the provider, idempotently keyed per user and chain', async () => {
    const r = await setup('dora');
    expect(r.status).toBe(200);
    const wallets = (r.body as Account).wallets;
    expect(Object.fromEntries(wallets.map((w) => [w.chain, w.address]))).toEqual(addresses);
    expect(upstream.requests).toHaveLength(2);
    for (const req of upstream.requests) {
      expect(req).toMatchObject({ method: 'POST', path: '/v1/wallets', body: { owner: 'dora' } });
      expect(req.headers.authorization).toBe('Bearer wp-key');
      expect(req.headers['idempotency-key']).toBe(`dora:${(req.body as { chain: string }).chain}`);
    }
    await setup('dora');
    expect(upstream.requests).toHaveLength(2); // nothing missing: the provider is not asked again
  });

  it('502 when the provider fails or answers an invalid address; nothing half-made is kept', async () => {
    upstream.handle(() => ({ status: 500 }));
    const failed = await setup('eve');
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ error: 'upstream_error' });
    upstream.handle((req) => ({
      body: { address: (req.body as { chain: string }).chain === 'polygon' ? '0x1234' : addresses.solana },
    }));
    expect((await setup('frank')).status).toBe(502);
    expect(await remote.services.db.prisma.wallet.count({ where: { userId: { in: ['eve', 'frank'] } } })).toBe(0);
    expect(await remote.services.db.prisma.user.count({ where: { id: { in: ['eve', 'frank'] } } })).toBe(0);
  });

  it('after a provider failure, the call that completes onboarding reports created: true (once)', async () => {
    let polygonCalls = 0;
    // The provider fails on polygon the first time only.
    upstream.handle((req) => {
      const chain = (req.body as { chain: string }).chain;
      if (chain === 'polygon' && (polygonCalls += 1) === 1) return { status: 500 };
      return {
        body: {
          address:
            chain === 'polygon'
              ? '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359'
              : '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
        },
      };
    });
    const failed = await setup('gina');
    expect(failed.status).toBe(502);
    const me = await remote.as('gina').get('/auth/me');
    expect(me.body).toEqual({ userId: 'gina', createdAt: null, wallets: [] });
    const retried = await setup('gina');
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ userId: 'gina', created: true });
    expect((retried.body as Account).wallets).toHaveLength(2);
    expect((await setup('gina')).body).toMatchObject({ created: false });
  });

  it('a user who linked a wallet first is onboarded by their first setup (created: true)', async () => {
    upstream.handle((req) => ({
      body: {
        address:
          (req.body as { chain: string }).chain === 'polygon'
            ? '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB'
            : 'So11111111111111111111111111111111111111112',
      },
    }));
    const linked = await remote
      .as('hal')
      .post('/api/wallets/import', { chain: 'polygon', address: '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb' });
    expect(linked.status).toBe(201);
    expect((await setup('hal')).body).toMatchObject({ created: true });
    expect((await setup('hal')).body).toMatchObject({ created: false });
  });
});
