import {
  ImportWalletDocument,
  VerifyWalletDocument,
  WalletChallengeDocument,
  type LeaderboardMeQuery,
  type UserStatsQuery,
  type WalletChallengeMutation,
  type WalletsQuery,
} from '../../../schema/generated/operations';
import { TradeIngestService } from '../../../src/modules/ingestion/trade-ingest.service';
import { http, startTestApp, type TestApp, type UserClient } from '../../support/app';
import { gql } from '../../support/graphql';
import { describeOnPostgres } from '../../support/modes';
import { importVerified, polygonSigner, solanaSigner, verifyWallet, type TestSigner } from '../../support/wallets';

type Wallet = WalletsQuery['wallets'][number];
type Challenge = WalletChallengeMutation['walletChallenge'];
type Stats = UserStatsQuery['userStats'];
type Me = LeaderboardMeQuery['leaderboardMe'];

// The services' clock runs `skew` ms ahead of the real one, so a test can move past a challenge's expiry.
let skew = 0;
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ WALLET_IMPORT_RATE_LIMIT: '3' }, {}, { now: () => Date.now() + skew });
});
afterAll(async () => {
  await app.close();
});

async function importAs(user: UserClient, signer: TestSigner): Promise<Wallet> {
  const r = await user.post('/api/wallets/import', { chain: signer.chain, address: signer.address });
  expect(r.status).toBe(201);
  return r.body as Wallet;
}

async function challenge(user: UserClient, walletId: string): Promise<Challenge> {
  const r = await user.post(`/api/wallets/${walletId}/challenge`);
  expect(r.status).toBe(200);
  return r.body as Challenge;
}

const walletsOf = async (user: UserClient) => (await user.get('/api/wallets')).body as Wallet[];
const messageOf = (r: { body: unknown }) => (r.body as { message: string }).message;

describe('wallet ownership: challenge and verify', () => {
  it('an imported polygon wallet is unverified until a personal_sign of its challenge verifies it', async () => {
    const user = app.as('own-poly');
    const signer = polygonSigner('own-poly');
    const imported = await importAs(user, signer);
    expect(imported).toMatchObject({ kind: 'imported', verification: 'unverified', verifiedAt: null });
    const c = await challenge(user, imported.id);
    expect(c).toMatchObject({ walletId: imported.id, chain: 'polygon', address: signer.address });
    expect(c.nonce).toMatch(/^[0-9a-f]{32}$/);
    for (const part of [signer.address, imported.id, c.nonce, c.expiresAt]) expect(c.message).toContain(part);
    expect(Date.parse(c.expiresAt)).toBeGreaterThan(Date.now());
    const r = await user.post(`/api/wallets/${imported.id}/verify`, { signature: signer.sign(c.message) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: imported.id, verification: 'verified' });
    expect(typeof (r.body as Wallet).verifiedAt).toBe('string');
    expect((await walletsOf(user)).find((w) => w.id === imported.id)).toMatchObject({ verification: 'verified' });
  });

  it('a solana wallet verifies with an ed25519 signature of the message bytes', async () => {
    const user = app.as('own-sol');
    const signer = solanaSigner('own-sol');
    const imported = await importAs(user, signer);
    const r = await verifyWallet(user, imported.id, signer);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ chain: 'solana', address: signer.address, verification: 'verified' });
  });

  it('accepts v as 0/1 and any hex case in a polygon signature', async () => {
    const user = app.as('own-v');
    const signer = polygonSigner('own-v');
    const imported = await importAs(user, signer);
    const c = await challenge(user, imported.id);
    const sig = signer.sign(c.message);
    const v = parseInt(sig.slice(-2), 16) - 27;
    const signature = `0x${sig.slice(2, -2).toUpperCase()}0${v}`;
    expect((await user.post(`/api/wallets/${imported.id}/verify`, { signature })).status).toBe(200);
  });

  it('400 naming `signature` for another key or a malformed signature; the challenge stays open', async () => {
    const user = app.as('own-wrong');
    const signer = polygonSigner('own-wrong');
    const sol = solanaSigner('own-wrong');
    const imported = await importAs(user, signer);
    const solWallet = await importAs(user, sol);
    const c = await challenge(user, imported.id);
    const verify = (signature: unknown) => user.post(`/api/wallets/${imported.id}/verify`, { signature });
    const wrongKey = await verify(polygonSigner('someone else').sign(c.message));
    expect(wrongKey.status).toBe(400);
    expect(wrongKey.body).toMatchObject({ error: 'bad_request' });
    expect(messageOf(wrongKey)).toMatch(/^signature: is not a signature of the challenge by 0x/);
    // The right key over another text is no proof either.
    expect(messageOf(await verify(signer.sign(`${c.message} `)))).toMatch(/^signature: is not a signature/);
    for (const bad of ['0x1234', `0x${'zz'.repeat(65)}`, `0x${'00'.repeat(64)}1d`, 'abc']) {
      const r = await verify(bad);
      expect([bad, r.status]).toEqual([bad, 400]);
      expect(messageOf(r)).toMatch(/^signature: must be a personal_sign signature: 0x and 130 hex digits/);
    }
    // r = s = 0: well-formed, but no key signed it.
    expect(messageOf(await verify(`0x${'00'.repeat(64)}1b`))).toMatch(/^signature: is not a signature/);
    for (const body of [{}, { signature: '' }, { signature: 7 }, { signature: 'x'.repeat(201) }]) {
      const r = await user.post(`/api/wallets/${imported.id}/verify`, body);
      expect([body, r.status]).toEqual([body, 400]);
      expect(messageOf(r)).toMatch(/^signature: /);
    }
    const solC = await challenge(user, solWallet.id);
    const solBad = await user.post(`/api/wallets/${solWallet.id}/verify`, {
      signature: solanaSigner('other').sign(solC.message),
    });
    expect(messageOf(solBad)).toMatch(/^signature: is not a signature of the challenge by /);
    const solMalformed = await user.post(`/api/wallets/${solWallet.id}/verify`, { signature: '0OIl' });
    expect(messageOf(solMalformed)).toMatch(/^signature: must be an ed25519 signature: the base58 of 64 bytes/);
    expect((await walletsOf(user)).every((w) => w.verification === 'unverified')).toBe(true);
    // Still open: the owner's signature of the same challenge verifies.
    expect((await verify(signer.sign(c.message))).status).toBe(200);
  });

  it('a challenge is single use: spent by the verify, and replaced by a newer one', async () => {
    const user = app.as('own-once');
    const signer = solanaSigner('own-once');
    const first = await importAs(user, signer);
    const c1 = await challenge(user, first.id);
    const c2 = await challenge(user, first.id);
    expect(c2.nonce).not.toBe(c1.nonce);
    const stale = await user.post(`/api/wallets/${first.id}/verify`, { signature: signer.sign(c1.message) });
    expect(stale.status).toBe(400);
    expect(messageOf(stale)).toMatch(/^signature: /);
    const signature = signer.sign(c2.message);
    expect((await user.post(`/api/wallets/${first.id}/verify`, { signature })).status).toBe(200);
    const replay = await user.post(`/api/wallets/${first.id}/verify`, { signature });
    expect(replay.status).toBe(409);
    expect(replay.body).toMatchObject({ error: 'conflict' });
    // Unlinked and linked again: a new wallet with no challenge open; the old signature proves nothing.
    expect((await user.delete(`/api/wallets/${first.id}`)).status).toBe(200);
    const again = await importAs(user, signer);
    const r = await user.post(`/api/wallets/${again.id}/verify`, { signature });
    expect(r.status).toBe(400);
    expect(messageOf(r)).toMatch(/^challenge: none is open/);
  });

  it('a challenge expires (400 naming `challenge`); a new one verifies', async () => {
    const user = app.as('own-late');
    const signer = polygonSigner('own-late');
    const imported = await importAs(user, signer);
    const c = await challenge(user, imported.id);
    skew = 601_000;
    try {
      const late = await user.post(`/api/wallets/${imported.id}/verify`, { signature: signer.sign(c.message) });
      expect(late.status).toBe(400);
      expect(messageOf(late)).toMatch(/^challenge: expired at .*; request a new one/);
      const fresh = await challenge(user, imported.id);
      const r = await user.post(`/api/wallets/${imported.id}/verify`, { signature: signer.sign(fresh.message) });
      expect(r.status).toBe(200);
    } finally {
      skew = 0;
    }
  });

  it('404 on another user’s or an unknown wallet, 409 on a verified one, 401 without a token', async () => {
    const user = app.as('own-404');
    const signer = polygonSigner('own-404');
    const w = await importVerified(user, signer);
    for (const path of [`/api/wallets/${w.id}/challenge`, `/api/wallets/${w.id}/verify`]) {
      expect((await app.as('intruder').post(path, { signature: '0x00' })).status).toBe(404);
      expect((await http(`${app.url}${path}`, { method: 'POST', json: { signature: '0x00' } })).status).toBe(401);
    }
    expect((await user.post('/api/wallets/nope/challenge')).status).toBe(404);
    const verified = await user.post(`/api/wallets/${w.id}/challenge`);
    expect(verified.status).toBe(409);
    expect(messageOf(verified)).toMatch(/verified already/);
    // Provisioned wallets are verified from the start.
    await app.as('own-404').post('/auth/setup');
    const provisioned = (await walletsOf(user)).filter((x) => x.kind === 'provisioned');
    expect(provisioned.map((x) => x.verification)).toEqual(['verified', 'verified']);
    expect((await user.post(`/api/wallets/${provisioned[0].id}/challenge`)).status).toBe(409);
  });

  it('GraphQL: walletChallenge and verifyWallet', async () => {
    const signer = solanaSigner('own-gql');
    const imported = await importAs(app.as('own-gql'), signer);
    const auth = await app.bearer('own-gql');
    const c = await gql(app, WalletChallengeDocument, { id: imported.id }, auth);
    const message = c.body.data!.walletChallenge.message;
    const wrong = await gql(app, VerifyWalletDocument, { id: imported.id, signature: signer.sign('x') }, auth);
    expect(wrong.body.errors![0]).toMatchObject({ extensions: { code: 'bad_request' } });
    expect(wrong.body.errors![0].message).toMatch(/^signature: /);
    const ok = await gql(app, VerifyWalletDocument, { id: imported.id, signature: signer.sign(message) }, auth);
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data!.verifyWallet).toMatchObject({ id: imported.id, verification: 'verified' });
  });
});

describe('wallet ownership: takeover', () => {
  it('a second user may import an address another only imported, verify it and take it over', async () => {
    const [squatter, owner, late] = [app.as('tk-squat'), app.as('tk-owner'), app.as('tk-late')];
    const signer = polygonSigner('tk-famous');
    const squatted = await importAs(squatter, signer);
    // The squatter cannot prove it.
    const c = await challenge(squatter, squatted.id);
    const forged = await squatter.post(`/api/wallets/${squatted.id}/verify`, {
      signature: polygonSigner('tk-squat').sign(c.message),
    });
    expect(forged.status).toBe(400);
    // The owner claims the address (in any case) to prove it: an unverified link of its own.
    const mine = (
      await owner.post('/api/wallets/import', { chain: 'polygon', address: signer.address.toLowerCase(), claim: true })
    ).body as Wallet;
    expect(mine).toMatchObject({ address: signer.address, verification: 'unverified' });
    expect((await verifyWallet(owner, mine.id, signer)).status).toBe(200);
    // Taken over: the squatter's unverified import is removed.
    expect((await walletsOf(squatter)).map((w) => w.address)).not.toContain(signer.address);
    expect((await squatter.post(`/api/wallets/${squatted.id}/verify`, { signature: '0x00' })).status).toBe(404);
    // A verified address cannot be imported by anyone else, claimed or not.
    for (const [user, claim] of [
      [squatter, false],
      [late, true],
    ] as const) {
      const r = await user.post('/api/wallets/import', { chain: 'polygon', address: signer.address, claim });
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ error: 'conflict' });
      expect(messageOf(r)).toMatch(/already linked to another account, which verified it/);
    }
  });

  it('importing what another user linked: 409 naming no user; the owner claims, verifies, takes it over', async () => {
    const [first, owner] = [app.as('cl-first-user'), app.as('cl-owner-user')];
    const signer = polygonSigner('cl-address');
    const linked = await importAs(first, signer);
    const refused = await owner.post('/api/wallets/import', { chain: 'polygon', address: signer.address });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'conflict' });
    expect(messageOf(refused)).toMatch(
      /^polygon wallet 0x[0-9a-fA-F]{40} is already linked to another account; verify ownership to claim it/,
    );
    for (const name of ['cl-first-user', 'cl-owner-user', linked.id]) expect(messageOf(refused)).not.toContain(name);
    expect(await walletsOf(owner)).toEqual([]);

    const claimed = await owner.post('/api/wallets/import', { chain: 'polygon', address: signer.address, claim: true });
    expect(claimed.status).toBe(201);
    expect(claimed.body).toMatchObject({ address: signer.address, verification: 'unverified' });
    // The caller's own link again stays 409, claim or not.
    const again = await owner.post('/api/wallets/import', { chain: 'polygon', address: signer.address, claim: true });
    expect(again.status).toBe(409);
    expect(messageOf(again)).toMatch(/already linked to your account/);

    expect((await verifyWallet(owner, (claimed.body as Wallet).id, signer)).status).toBe(200);
    expect((await walletsOf(owner)).map((w) => [w.address, w.verification])).toEqual([[signer.address, 'verified']]);
    // The first user's unverified link is gone.
    expect(await walletsOf(first)).toEqual([]);
  });

  it('GraphQL importWallet: 409 without claim, a link of its own with claim: true', async () => {
    const signer = solanaSigner('cl-gql-address');
    await importAs(app.as('cl-gql-first'), signer);
    const auth = await app.bearer('cl-gql-owner');
    const vars = { chain: 'solana' as const, address: signer.address };
    const refused = await gql(app, ImportWalletDocument, vars, auth);
    expect(refused.body.errors![0]).toMatchObject({ extensions: { code: 'conflict' } });
    expect(refused.body.errors![0].message).toMatch(/verify ownership to claim it/);
    const claimed = await gql(app, ImportWalletDocument, { ...vars, claim: true }, auth);
    expect(claimed.body.errors).toBeUndefined();
    expect(claimed.body.data!.importWallet).toMatchObject({ address: signer.address, verification: 'unverified' });
  });

  it('of two unverified imports (the second claimed), the first to verify wins; the other gets 404', async () => {
    const [a, b] = [app.as('tk-a'), app.as('tk-b')];
    const signer = solanaSigner('tk-shared');
    const wa = await importAs(a, signer);
    const claimed = await b.post('/api/wallets/import', { chain: signer.chain, address: signer.address, claim: true });
    expect(claimed.status).toBe(201);
    const wb = claimed.body as Wallet;
    const cb = await challenge(b, wb.id);
    expect((await verifyWallet(a, wa.id, signer)).status).toBe(200);
    // b's wallet was removed by the takeover.
    const r = await b.post(`/api/wallets/${wb.id}/verify`, { signature: signer.sign(cb.message) });
    expect(r.status).toBe(404);
    expect((await walletsOf(b)).length).toBe(0);
    expect((await walletsOf(a)).map((w) => [w.address, w.verification])).toEqual([[signer.address, 'verified']]);
  });
});

// PGlite serves one transaction at a time: the race means something on PostgreSQL only.
describeOnPostgres('two users importing one address at once', () => {
  it('one gets 201, the other 409: the check and the insert run under the address lock', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const signer = polygonSigner(`race-${i}`);
        const body = { chain: 'polygon', address: signer.address };
        const [x, y] = await Promise.all([
          app.as(`race-x-${i}`).post('/api/wallets/import', body),
          app.as(`race-y-${i}`).post('/api/wallets/import', body),
        ]);
        return [x.status, y.status].sort();
      }),
    );
    expect(outcomes).toEqual(Array.from({ length: 6 }, () => [201, 409]));
  });
});

describe('only verified wallets count in public figures', () => {
  it('stats, trader identity and the leaderboard rank ignore an unverified import', async () => {
    const user = app.as('pub-ann');
    const signer = polygonSigner('pub-ann');
    const traderId = signer.address.toLowerCase();
    const prisma = app.services.db.prisma;
    const marketId = (await prisma.market.findFirstOrThrow({ where: { venue: 'venue_a' } })).venueMarketId;
    await app.services.get(TradeIngestService).ingest([
      {
        venue: 'venue_a',
        venueTradeId: 'pub-1',
        venueMarketId: marketId,
        venueTraderId: traderId,
        side: 'buy',
        outcome: 'yes',
        price: 0.5,
        size: 40,
        filledAt: new Date(Date.UTC(2026, 10, 2)),
      },
    ]);
    const imported = await importAs(user, signer);
    const stats = async () => (await http(`${app.url}/api/stats/pub-ann`)).body as Stats;
    const me = async () => (await user.get('/api/leaderboard/me')).body as Me;
    expect(await stats()).toMatchObject({ wallets: 0, rankedWallets: 0, onChain: { totalVolume: 0, totalTrades: 0 } });
    expect(await me()).toMatchObject({ traderIds: [], rank: null, me: null });
    // The trader's own public profile does not depend on who linked it.
    expect((await http(`${app.url}/api/traders/venue_a/${traderId}`)).status).toBe(200);
    expect((await verifyWallet(user, imported.id, signer)).status).toBe(200);
    expect(await stats()).toMatchObject({ wallets: 1, rankedWallets: 1, onChain: { totalVolume: 20, totalTrades: 1 } });
    const after = await me();
    expect(after.traderIds).toEqual([traderId]);
    expect(after.me).toMatchObject({ traderId });
  });
});

describe('per-user import limit', () => {
  it('429 with Retry-After beyond WALLET_IMPORT_RATE_LIMIT imports a minute, per user', async () => {
    const user = app.as('rl-imports');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const s = polygonSigner(`rl-${i}`);
      statuses.push((await user.post('/api/wallets/import', { chain: 'polygon', address: s.address })).status);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
    const r = await user.post('/api/wallets/import', { chain: 'solana', address: solanaSigner('rl').address });
    expect(r.status).toBe(429);
    expect(r.body).toMatchObject({ error: 'rate_limited' });
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Counted per user.
    expect((await importVerified(app.as('rl-other'), polygonSigner('rl-other'))).address).toBeTruthy();
  });
});
