import {
  RequestWithdrawalDocument,
  type RequestWithdrawalMutation,
  type WalletsQuery,
  type WithdrawalsQuery,
} from '../../../schema/generated/operations';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { http, startTestApp, type TestApp, type UserClient } from '../../support/app';
import { fund } from '../../support/funding';
import { gql } from '../../support/graphql';
import { importVerified, polygonSigner, verifyWallet } from '../../support/wallets';

/**
 * Who may send money where: with the user token alone (what a thief of it holds) a withdrawal goes
 * only to the caller's own verified wallets; the wallet-auth token (step-up) may name any address.
 * Withdrawals are rate limited per user, and a replayed Idempotency-Key spends nothing.
 */
type Withdrawal = RequestWithdrawalMutation['requestWithdrawal'];
type Wallets = WalletsQuery['wallets'];

/** An address nobody in these tests holds: the thief's. */
const THIEF = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const RATE = 5;

let app: TestApp;
beforeAll(async () => {
  // The import cooldown is left at its default (24 h).
  app = await startTestApp({ WITHDRAWAL_DISPATCH_MS: '0', WITHDRAW_RATE_LIMIT: String(RATE) });
});
afterAll(async () => {
  await app.close();
});

const withdraw = (client: UserClient, body: Record<string, unknown>, key?: string) =>
  client.post('/api/funding/withdraw', body, key === undefined ? {} : { 'idempotency-key': key });
const balance = (userId: string) => app.services.get(LedgerService).balance(userId);
const withdrawals = async (sub: string) =>
  ((await app.as(sub).get('/api/funding/withdrawals')).body as WithdrawalsQuery['withdrawals']).total;
const message = (r: { body: unknown }) => (r.body as { message: string }).message;

/** Signs `sub` up and answers its provisioned wallet's address on `chain`. */
async function provisioned(sub: string, chain: 'polygon' | 'solana'): Promise<string> {
  expect((await app.as(sub).post('/auth/setup')).status).toBe(200);
  const wallets = (await app.as(sub).get('/api/wallets')).body as Wallets;
  return wallets.find((w) => w.chain === chain && w.kind === 'provisioned')!.address;
}

describe('the user token alone', () => {
  it('cannot withdraw to an address that is not the caller’s: 400 naming destination, nothing held', async () => {
    await fund(app, 'victim', 100);
    await provisioned('victim', 'polygon');
    const r = await withdraw(app.as('victim'), { amount: 60, chain: 'polygon', destination: THIEF }, 'steal-1');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'bad_request' });
    expect(message(r)).toMatch(/^destination: is not one of your verified polygon wallets; .*wallet-auth token/);
    expect(await balance('victim')).toMatchObject({ available: 100_000_000n, held: 0n });
    expect(await withdrawals('victim')).toBe(0);
    // The same on GraphQL.
    const g = await gql(
      app,
      RequestWithdrawalDocument,
      { amount: 60, chain: 'polygon', destination: THIEF },
      await app.bearer('victim'),
    );
    expect(g.body.errors?.[0]).toMatchObject({ extensions: { code: 'bad_request' } });
    expect(g.body.errors?.[0].message).toMatch(/^destination: /);
    expect(await balance('victim')).toMatchObject({ available: 100_000_000n, held: 0n });
    // The refusal left its Idempotency-Key unused: the owner, stepping up, may send it again.
    const owner = await withdraw(
      app.asWallet('victim'),
      { amount: 60, chain: 'polygon', destination: THIEF },
      'steal-1',
    );
    expect(owner.status).toBe(201);
  });

  it("withdraws to the caller's provisioned wallet, whatever the address's case", async () => {
    await fund(app, 'owner-p', 50);
    const address = await provisioned('owner-p', 'polygon');
    const r = await withdraw(app.as('owner-p'), { amount: 20, chain: 'polygon', destination: address.toLowerCase() });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'queued', destination: address, amount: 20 });
    expect(await balance('owner-p')).toMatchObject({ available: 30_000_000n, held: 20_000_000n });
    // On solana too, with the wallet of that chain only.
    const solana = await provisioned('owner-p', 'solana');
    expect((await withdraw(app.as('owner-p'), { amount: 5, chain: 'solana', destination: solana })).status).toBe(201);
  });

  it("is refused for another user's wallet, verified as it is", async () => {
    await fund(app, 'thief-acct', 50);
    const othersWallet = await provisioned('someone-else', 'polygon');
    const r = await withdraw(app.as('thief-acct'), { amount: 10, chain: 'polygon', destination: othersWallet });
    expect(r.status).toBe(400);
    expect(message(r)).toMatch(/^destination: /);
    expect(await balance('thief-acct')).toMatchObject({ available: 50_000_000n, held: 0n });
  });

  it('an import: refused unverified, refused just verified (cooldown), accepted once the cooldown passed', async () => {
    // What a thief holding the user token can do: import an address of their own and sign its challenge.
    const key = polygonSigner('withdraw-import');
    await fund(app, 'importer', 50);
    const imported = await app.as('importer').post('/api/wallets/import', { chain: 'polygon', address: key.address });
    expect(imported.status).toBe(201);
    const body = { amount: 10, chain: 'polygon', destination: key.address };
    const unverified = await withdraw(app.as('importer'), body);
    expect(unverified.status).toBe(400);
    expect(message(unverified)).toMatch(/^destination: is not one of your verified polygon wallets/);

    const walletId = (imported.body as { id: string }).id;
    expect((await verifyWallet(app.as('importer'), walletId, key)).status).toBe(200);
    const fresh = await withdraw(app.as('importer'), body);
    expect(fresh.status).toBe(400);
    expect(message(fresh)).toMatch(/^destination: was verified too recently: user-token withdrawals to it open at /);
    const opensAt = new Date(/open at (\S+);/.exec(message(fresh))![1]);
    const verifiedAt = (await app.services.db.prisma.wallet.findUniqueOrThrow({ where: { id: walletId } })).verifiedAt!;
    expect(opensAt.getTime() - verifiedAt.getTime()).toBe(24 * 3_600_000);
    expect(await balance('importer')).toMatchObject({ available: 50_000_000n, held: 0n });
    // The owner's wallet-auth token does not wait.
    expect((await withdraw(app.asWallet('importer'), body)).status).toBe(201);

    // A day later (the verification moved back in time) the user token may use it.
    await app.services.db.prisma.wallet.update({
      where: { id: walletId },
      data: { verifiedAt: new Date(Date.now() - 24 * 3_600_000 - 60_000) },
    });
    expect((await withdraw(app.as('importer'), body)).status).toBe(201);
    expect(await balance('importer')).toMatchObject({ available: 30_000_000n, held: 20_000_000n });
  });

  it('WITHDRAW_IMPORT_COOLDOWN_HOURS=0: a verified import is a destination at once', async () => {
    const noWait = await startTestApp({ WITHDRAWAL_DISPATCH_MS: '0', WITHDRAW_IMPORT_COOLDOWN_HOURS: '0' });
    try {
      await fund(noWait, 'at-once', 10);
      const key = polygonSigner('withdraw-at-once');
      await importVerified(noWait.as('at-once'), key);
      const r = await noWait.as('at-once').post('/api/funding/withdraw', {
        amount: 10,
        chain: 'polygon',
        destination: key.address,
      });
      expect(r.status).toBe(201);
    } finally {
      await noWait.close();
    }
  });
});

describe('the wallet-auth token (step-up)', () => {
  it('withdraws to any address valid for the chain, on both surfaces', async () => {
    await fund(app, 'stepper', 50);
    const r = await withdraw(app.asWallet('stepper'), { amount: 15, chain: 'polygon', destination: THIEF });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'queued', destination: THIEF });
    const g = await gql(
      app,
      RequestWithdrawalDocument,
      { amount: 5, chain: 'solana', destination: 'So11111111111111111111111111111111111111112' },
      await app.walletBearer('stepper'),
    );
    expect(g.body.data?.requestWithdrawal).toMatchObject({ status: 'queued', amount: 5 });
    expect(await balance('stepper')).toMatchObject({ available: 30_000_000n, held: 20_000_000n });
  });

  it('401 without a token, or with a token neither verifier accepts', async () => {
    const body = { amount: 1, chain: 'polygon', destination: THIEF };
    expect((await http(`${app.url}/api/funding/withdraw`, { method: 'POST', json: body })).status).toBe(401);
    const forged = await http(`${app.url}/api/funding/withdraw`, {
      method: 'POST',
      json: body,
      headers: { authorization: 'Bearer not.a.token' },
    });
    expect(forged.status).toBe(401);
  });
});

describe('WITHDRAW_RATE_LIMIT', () => {
  it('429 with Retry-After beyond the limit; refused attempts count; a replayed key is not charged', async () => {
    await fund(app, 'busy', 100);
    const client = app.asWallet('busy');
    const body = (amount: number) => ({ amount, chain: 'polygon' as const, destination: THIEF });
    // One attempt refused for its destination (user token), then RATE - 1 that run: the limit is spent.
    expect((await withdraw(app.as('busy'), body(1))).status).toBe(400);
    const first = await withdraw(client, body(1), 'busy-1');
    expect(first.status).toBe(201);
    for (let i = 2; i < RATE; i += 1) expect((await withdraw(client, body(1), `busy-${i}`)).status).toBe(201);
    // A retry replaying its key answers the first outcome, and is not counted (never 429).
    for (let i = 0; i < 3; i += 1) {
      const replay = await withdraw(client, body(1), 'busy-1');
      expect(replay.status).toBe(201);
      expect((replay.body as Withdrawal).id).toBe((first.body as Withdrawal).id);
    }
    const over = await withdraw(client, body(1), 'busy-over');
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ error: 'rate_limited' });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // GraphQL shares the bucket.
    const g = await gql(app, RequestWithdrawalDocument, body(1), await app.bearer('busy'));
    expect(g.body.errors?.[0]).toMatchObject({ extensions: { code: 'rate_limited' } });
    // Nothing was held beyond the withdrawals that ran; the refused key is still free.
    expect(await balance('busy')).toMatchObject({ held: BigInt(RATE - 1) * 1_000_000n });
    expect(await withdrawals('busy')).toBe(RATE - 1);
    // Another user is not limited by this one.
    await fund(app, 'calm', 5);
    expect((await withdraw(app.asWallet('calm'), body(1))).status).toBe(201);
  });
});
