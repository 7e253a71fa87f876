import type {
  PolygonBalancesQuery,
  SolanaBalancesQuery,
  WalletBalanceQuery,
  WalletsQuery,
} from '../../../schema/generated/operations';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { http, startTestApp, type TestApp } from '../../support/app';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream';

type Wallet = WalletsQuery['wallets'][number];
type Polygon = PolygonBalancesQuery['polygonBalances'];
type Solana = SolanaBalancesQuery['solanaBalances'];
type Aggregate = WalletBalanceQuery['walletBalance'];

// EIP-55's own examples.
const CHECKSUMMED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const SOLANA = 'So11111111111111111111111111111111111111112';

let app: TestApp;
beforeAll(async () => {
  // Many imports by one user below: the per-user import limit is raised out of the way.
  app = await startTestApp({ WALLET_IMPORT_RATE_LIMIT: '1000' });
});
afterAll(async () => {
  await app.close();
});

describe('wallets', () => {
  it('401 without a token on every route', async () => {
    for (const [method, path] of [
      ['GET', '/api/wallets'],
      ['POST', '/api/wallets/import'],
      ['DELETE', '/api/wallets/x'],
      ['POST', '/api/wallets/x/challenge'],
      ['POST', '/api/wallets/x/verify'],
      ['GET', '/api/wallets/balance'],
      ['GET', '/api/wallets/balance/polygon'],
      ['GET', '/api/wallets/balance/solana'],
    ] as const) {
      const r = await http(`${app.url}${path}`, {
        method,
        json: method === 'POST' ? { chain: 'polygon', address: CHECKSUMMED } : undefined,
      });
      expect([path, r.status]).toEqual([path, 401]);
    }
  });

  it('lists the provisioned wallets after onboarding', async () => {
    expect((await app.as('wa').get('/api/wallets')).body).toEqual([]);
    await app.as('wa').post('/auth/setup');
    const list = (await app.as('wa').get('/api/wallets')).body as Wallet[];
    expect(list.map((w) => `${w.chain}:${w.kind}`).sort()).toEqual(['polygon:provisioned', 'solana:provisioned']);
  });

  it('imports valid addresses (201), storing EVM addresses in checksum case', async () => {
    const lower = await app.as('wa').post('/api/wallets/import', {
      chain: 'polygon',
      address: CHECKSUMMED.toLowerCase(),
    });
    expect(lower.status).toBe(201);
    expect(lower.body).toMatchObject({
      chain: 'polygon',
      address: CHECKSUMMED,
      kind: 'imported',
      verification: 'unverified',
      verifiedAt: null,
    });
    const mixed = await app.as('wa').post('/api/wallets/import', {
      chain: 'polygon',
      address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    });
    expect(mixed.status).toBe(201);
    const upper = await app.as('wa').post('/api/wallets/import', {
      chain: 'polygon',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
    });
    expect(upper.status).toBe(201);
    const sol = await app.as('wa').post('/api/wallets/import', { chain: 'solana', address: SOLANA });
    expect(sol.status).toBe(201);
    expect(sol.body).toMatchObject({ chain: 'solana', address: SOLANA, kind: 'imported' });
    expect(((await app.as('wa').get('/api/wallets')).body as Wallet[]).length).toBe(6);
  });

  it.each([
    [{ chain: 'polygon', address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD' }, 'address', 'checksum'],
    [{ chain: 'polygon', address: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae' }, 'address', '40 hex'],
    [{ chain: 'polygon', address: SOLANA }, 'address', '40 hex'],
    [{ chain: 'solana', address: '0OIl1111111111111111111111111111111' }, 'address', 'base58'],
    [{ chain: 'solana', address: '1111111111111111111111111111111111' }, 'address', '32 bytes'],
    [{ chain: 'solana', address: CHECKSUMMED }, 'address', ''],
    [{ chain: 'bitcoin', address: CHECKSUMMED }, 'chain', 'one of'],
    [{ chain: 'polygon' }, 'address', 'required'],
    [{ chain: 'polygon', address: CHECKSUMMED, claim: 'yes' }, 'claim', 'true or false'],
  ])('400 on %j', async (body, field, words) => {
    const r = await app.as('wa').post('/api/wallets/import', body);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'bad_request' });
    expect((r.body as { message: string }).message).toMatch(new RegExp(`^${field}: .*${words}`));
  });

  it('409 when the address is linked by the caller (any case) or another user, verified or not', async () => {
    const again = await app.as('wa').post('/api/wallets/import', {
      chain: 'polygon',
      address: CHECKSUMMED.toUpperCase().replace('0X', '0x'),
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'conflict' });
    // Another user's unverified import: 409 naming no user, unless the caller claims the address to verify it.
    const other = await app.as('wb').post('/api/wallets/import', { chain: 'solana', address: SOLANA });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ error: 'conflict' });
    expect((other.body as { message: string }).message).toMatch(
      /linked to another account; verify ownership to claim it/,
    );
    expect((other.body as { message: string }).message).not.toMatch(/\bw[ab]\b/);
    const claimed = await app.as('wb').post('/api/wallets/import', { chain: 'solana', address: SOLANA, claim: true });
    expect(claimed.status).toBe(201);
    expect(claimed.body).toMatchObject({ verification: 'unverified' });
    expect((await app.as('wb').delete(`/api/wallets/${(claimed.body as Wallet).id}`)).status).toBe(200);
    // Provisioned wallets are verified: nobody else may link their addresses.
    const provisioned = ((await app.as('wa').get('/api/wallets')).body as Wallet[]).find(
      (w) => w.kind === 'provisioned',
    )!;
    expect(
      (await app.as('wb').post('/api/wallets/import', { chain: provisioned.chain, address: provisioned.address }))
        .status,
    ).toBe(409);
  });

  it('DELETE: imported → 200 and gone; provisioned → 400; another user’s or unknown → 404', async () => {
    const list = (await app.as('wa').get('/api/wallets')).body as Wallet[];
    const imported = list.find((w) => w.kind === 'imported' && w.chain === 'solana')!;
    const provisioned = list.find((w) => w.kind === 'provisioned')!;
    expect((await app.as('wb').delete(`/api/wallets/${imported.id}`)).status).toBe(404);
    expect((await app.as('wa').delete('/api/wallets/00000000-0000-0000-0000-000000000000')).status).toBe(404);
    const p = await app.as('wa').delete(`/api/wallets/${provisioned.id}`);
    expect(p.status).toBe(400);
    expect((p.body as { message: string }).message).toMatch(/^id: .*provisioned/);
    const del = await app.as('wa').delete(`/api/wallets/${imported.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id: imported.id, address: SOLANA });
    expect((await app.as('wa').delete(`/api/wallets/${imported.id}`)).status).toBe(404);
    // Unlinked: the caller may link it again.
    expect((await app.as('wa').post('/api/wallets/import', { chain: 'solana', address: SOLANA })).status).toBe(201);
  });

  it('balances with the simulated chain data: USDC 1:1, MATIC $0.50, SOL $150, plus the ledger', async () => {
    await app.as('wc').post('/auth/setup');
    await app.services.get(LedgerService).postAll([
      { userId: 'wc', kind: 'deposit', available: 12_500_000n, held: 0n, reference: 't', idempotencyKey: 'wc:1' },
      {
        userId: 'wc',
        kind: 'withdrawal_hold',
        available: -2_500_000n,
        held: 2_500_000n,
        reference: 't',
        idempotencyKey: 'wc:2',
      },
    ]);
    const polygon = (await app.as('wc').get('/api/wallets/balance/polygon')).body as Polygon;
    expect(polygon.chain).toBe('polygon');
    expect(polygon.maticUsdPrice).toBe(0.5);
    expect(polygon.wallets).toHaveLength(1);
    const w = polygon.wallets[0];
    expect(Object.keys(w).sort()).toEqual(['address', 'kind', 'matic', 'usdValue', 'usdc', 'walletId']);
    expect(w.usdValue).toBeCloseTo(w.usdc + w.matic * 0.5, 6);
    const solana = (await app.as('wc').get('/api/wallets/balance/solana')).body as Solana;
    expect(solana.solUsdPrice).toBe(150);
    expect(solana.wallets[0].usdValue).toBeCloseTo(solana.wallets[0].usdc + solana.wallets[0].sol * 150, 6);
    const agg = (await app.as('wc').get('/api/wallets/balance')).body as Aggregate;
    expect(agg).toMatchObject({ currency: 'USD', available: 10, held: 2.5 });
    expect(agg.onchain).toBeCloseTo(polygon.totalUsd + solana.totalUsd, 6);
    expect(agg.total).toBeCloseTo(10 + 2.5 + agg.onchain, 6);
    expect(agg.prices).toEqual([
      { symbol: 'MATIC', usd: 0.5 },
      { symbol: 'SOL', usd: 150 },
    ]);
  });

  it('a user without wallets has zero balances', async () => {
    const agg = (await app.as('nobody').get('/api/wallets/balance')).body as Aggregate;
    expect(agg).toMatchObject({ total: 0, available: 0, held: 0, onchain: 0 });
    expect(((await app.as('nobody').get('/api/wallets/balance/solana')).body as Solana).wallets).toEqual([]);
  });
});

describe('chain balances over HTTP', () => {
  let upstream: FakeUpstream;
  let remote: TestApp;
  beforeAll(async () => {
    upstream = await startFakeUpstream((req) => {
      const { chain, addresses } = req.body as { chain: string; addresses: string[] };
      return {
        body: {
          nativeUsdPrice: chain === 'polygon' ? '0.731234' : 142.5,
          balances: addresses.map((address, i) => ({
            address,
            usdc: `${10 + i}.25`,
            native: chain === 'polygon' ? '2.000001' : '0.1',
          })),
        },
      };
    });
    remote = await startTestApp({ CHAIN_BALANCES_URL: upstream.url, CHAIN_BALANCES_API_KEY: 'cb-key' });
  });
  afterAll(async () => {
    await remote.close();
    await upstream.close();
  });

  it('values the upstream balances exactly', async () => {
    await remote.as('hx').post('/auth/setup');
    await remote.as('hx').post('/api/wallets/import', { chain: 'polygon', address: CHECKSUMMED });
    const polygon = (await remote.as('hx').get('/api/wallets/balance/polygon')).body as Polygon;
    expect(polygon.wallets.map((w) => [w.usdc, w.matic])).toEqual([
      [10.25, 2.000001],
      [11.25, 2.000001],
    ]);
    // 2.000001 × 0.731234 = 1.462468731234 → 1.462469 (half up, micro-units)
    expect(polygon.wallets.map((w) => w.usdValue)).toEqual([11.712469, 12.712469]);
    expect(polygon.totalUsd).toBe(24.424938);
    const req = upstream.requests.find((r) => (r.body as { chain: string }).chain === 'polygon')!;
    expect(req).toMatchObject({ method: 'POST', path: '/v1/balances' });
    expect(req.headers.authorization).toBe('Bearer cb-key');
    const agg = (await remote.as('hx').get('/api/wallets/balance')).body as Aggregate;
    // solana: 10.25 + 0.1 × 142.5
    expect(agg.onchain).toBe(24.424938 + 24.5);
    expect(agg.prices).toEqual([
      { symbol: 'MATIC', usd: 0.731234 },
      { symbol: 'SOL', usd: 142.5 },
    ]);
  });

  it('502 when the upstream fails or answers nonsense', async () => {
    upstream.handle(() => ({ status: 503 }));
    expect((await remote.as('hx').get('/api/wallets/balance/polygon')).status).toBe(502);
    upstream.handle(() => ({ body: { balances: 'none' } }));
    const r = await remote.as('hx').get('/api/wallets/balance');
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({ error: 'upstream_error' });
  });
});
