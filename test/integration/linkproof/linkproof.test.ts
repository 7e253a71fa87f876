import type { CreateProofLinkMutation, WalletProofQuery, WalletsQuery } from '../../../schema/generated/operations';
import { http, startTestApp, type TestApp } from '../../support/app';
import {
  startFakeUpstream,
  type FakeUpstream,
  type UpstreamReply,
  type UpstreamRequest,
} from '../../support/fake-upstream';

type Proof = WalletProofQuery['walletProof'];

/** Two valid Solana addresses (base58 of 32 bytes). */
const SOL_A = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
const SOL_B = 'So11111111111111111111111111111111111111112';

const ok = (req: UpstreamRequest): UpstreamReply => {
  if (req.method === 'POST' && req.path === '/v1/proof-links') {
    const b = req.body as { wallet: string };
    return { body: { url: `idp://prove?wallet=${b.wallet}`, expires_at: '2030-01-01T00:00:00Z' } };
  }
  if (req.method === 'GET' && req.path.startsWith('/v1/proofs/')) {
    return { body: { status: 'verified', verified_at: '2026-05-01T10:00:00Z' } };
  }
  return { status: 404 };
};

let idp: FakeUpstream;
let app: TestApp;
beforeAll(async () => {
  idp = await startFakeUpstream(ok);
  app = await startTestApp({ IDENTITY_PROVIDER_URL: idp.url, IDENTITY_PROVIDER_API_KEY: 'idp-key' });
});
afterAll(async () => {
  await app.close();
  await idp.close();
});
beforeEach(() => {
  idp.handle(ok);
});

async function solanaWalletOf(sub: string): Promise<string> {
  expect((await app.as(sub).post('/auth/setup')).status).toBe(200);
  const wallets = (await app.as(sub).get('/api/wallets')).body as WalletsQuery['wallets'];
  return wallets.find((w) => w.chain === 'solana' && w.kind === 'provisioned')!.address;
}

describe('POST /linkproof/proof-link', () => {
  it('401 without a token', async () => {
    expect((await http(`${app.url}/linkproof/proof-link`, { method: 'POST' })).status).toBe(401);
  });

  it('400 when the caller has no Solana wallet', async () => {
    const r = await app.as('lp-none').post('/linkproof/proof-link');
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toMatch(/^wallet: /);
    expect(
      idp.requests.some((q) => q.path === '/v1/proof-links' && (q.body as { subject: string }).subject === 'lp-none'),
    ).toBe(false);
  });

  it("a deep link from the identity provider for the caller's provisioned Solana wallet", async () => {
    const wallet = await solanaWalletOf('lp-user');
    // An imported Solana wallet does not displace the provisioned one.
    expect((await app.as('lp-user').post('/api/wallets/import', { chain: 'solana', address: SOL_A })).status).toBe(201);
    const r = await app.as('lp-user').post('/linkproof/proof-link');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      wallet,
      chain: 'solana',
      url: `idp://prove?wallet=${wallet}`,
      expiresAt: '2030-01-01T00:00:00.000Z',
    });
    const sent = idp.requests.filter((q) => q.path === '/v1/proof-links').at(-1)!;
    expect(sent.body).toEqual({ subject: 'lp-user', wallet, chain: 'solana' });
    expect(sent.headers.authorization).toBe('Bearer idp-key');
  });

  it('uses the oldest imported Solana wallet when none was provisioned', async () => {
    expect((await app.as('lp-imp').post('/api/wallets/import', { chain: 'solana', address: SOL_B })).status).toBe(201);
    const r = await app.as('lp-imp').post('/linkproof/proof-link');
    expect(r.body).toMatchObject({ wallet: SOL_B });
  });

  it.each([
    ['an error status', () => ({ status: 500, body: { error: 'boom' } })],
    ['a malformed answer', () => ({ body: { url: 'not a url' } })],
  ])('503 when the identity provider fails (%s)', async (_what, reply) => {
    await solanaWalletOf('lp-user');
    idp.handle(reply);
    const r = await app.as('lp-user').post('/linkproof/proof-link');
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ error: 'unavailable', message: expect.stringMatching(/identity provider/) });
  });
});

describe('GET /linkproof/verify/{wallet}', () => {
  it('public: the provider status of a Solana address', async () => {
    const r = await http(`${app.url}/linkproof/verify/${SOL_A}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      wallet: SOL_A,
      chain: 'solana',
      status: 'verified',
      verified: true,
      verifiedAt: '2026-05-01T10:00:00.000Z',
    });
    expect(idp.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v1/proofs/${SOL_A}` });
  });

  it.each(['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'not-base58-0OIl', '1111', `${SOL_A}x`])(
    '400 on %s',
    async (wallet) => {
      const r = await http(`${app.url}/linkproof/verify/${encodeURIComponent(wallet)}`);
      expect(r.status).toBe(400);
      expect((r.body as { message: string }).message).toMatch(/^wallet: /);
    },
  );

  it.each([
    ['an error status', () => ({ status: 503 })],
    ['an unknown status value', () => ({ body: { status: 'maybe' } })],
  ])('502 when the proof API fails (%s)', async (_what, reply) => {
    idp.handle(reply);
    const r = await http(`${app.url}/linkproof/verify/${SOL_A}`);
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({ error: 'upstream_error' });
  });
});

describe('POST /linkproof/proof-status', () => {
  it('401 without a token; `no_wallet` without a Solana wallet', async () => {
    expect((await http(`${app.url}/linkproof/proof-status`, { method: 'POST' })).status).toBe(401);
    const r = await app.as('lp-none').post('/linkproof/proof-status');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ wallet: null, status: 'no_wallet', verified: false, verifiedAt: null });
  });

  it("the status of the caller's primary Solana wallet; 502 when the proof API fails", async () => {
    const wallet = await solanaWalletOf('lp-status');
    idp.handle((req) =>
      req.path.startsWith('/v1/proofs/') ? { body: { status: 'pending', verified_at: null } } : { status: 404 },
    );
    const r = await app.as('lp-status').post('/linkproof/proof-status');
    expect(r.status).toBe(200);
    expect(r.body as Proof).toMatchObject({ wallet, status: 'pending', verified: false, verifiedAt: null });
    idp.handle(() => ({ status: 500 }));
    expect((await app.as('lp-status').post('/linkproof/proof-status')).status).toBe(502);
  });
});

describe('unreachable provider and the simulated default', () => {
  it('an unreachable provider: 503 for links, 502 for checks', async () => {
    const gone = await startFakeUpstream(ok);
    const url = gone.url;
    await gone.close();
    const down = await startTestApp({ IDENTITY_PROVIDER_URL: url });
    try {
      expect((await down.as('lp-down').post('/auth/setup')).status).toBe(200);
      expect((await down.as('lp-down').post('/linkproof/proof-link')).status).toBe(503);
      expect((await http(`${down.url}/linkproof/verify/${SOL_A}`)).status).toBe(502);
    } finally {
      await down.close();
    }
  });

  it('without IDENTITY_PROVIDER_URL: simulated links, every wallet unverified', async () => {
    const sim = await startTestApp();
    try {
      const user = sim.as('lp-sim');
      expect((await user.post('/auth/setup')).status).toBe(200);
      const link = await user.post('/linkproof/proof-link');
      expect(link.status).toBe(200);
      const body = link.body as CreateProofLinkMutation['createProofLink'];
      const session = new URL(body.url).searchParams.get('session');
      expect(body.url).toBe(`https://identity.invalid/proof?chain=solana&wallet=${body.wallet}&session=${session}`);
      expect((await http(`${sim.url}/linkproof/verify/${SOL_A}`)).body).toMatchObject({
        status: 'unverified',
        verified: false,
      });
    } finally {
      await sim.close();
    }
  });
});
