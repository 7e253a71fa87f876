import type { PortfolioOverviewQuery } from '../../../schema/generated/operations';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { startTestApp, type TestApp } from '../../support/app';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream';
import { pinnedWorld } from '../../support/pinned-world';
import { fund } from '../../support/funding';
import { insertPosition, pinnedMarkets } from './portfolio-fixtures';

/**
 * The overview's balances: ledger (available, held), on-chain wallet value from
 * the chain-balances upstream (a local server here), open positions at their
 * marks, and their sum. An upstream failure leaves the on-chain part out and
 * says so; the overview still answers.
 */
let app: TestApp;
let chain: FakeUpstream;
const WALLET = '0x00000000000000000000000000000000000000aa';

beforeAll(async () => {
  chain = await startFakeUpstream(() => ({ status: 500 }));
  const p = pinnedWorld();
  app = await startTestApp({ CHAIN_BALANCES_URL: chain.url }, {}, p);
  const mk = pinnedMarkets(p.world);
  await app.services.db.prisma.user.create({ data: { id: 'pf-ivy' } });
  await app.services.db.prisma.wallet.create({
    data: { userId: 'pf-ivy', chain: 'polygon', address: WALLET, kind: 'imported' },
  });
  await fund(app, 'pf-ivy', '250.5');
  // A withdrawal hold of 50.25 moves that much from available to held.
  await app.services.get(LedgerService).postAll([
    {
      userId: 'pf-ivy',
      kind: 'withdrawal_hold',
      available: -50_250_000n,
      held: 50_250_000n,
      reference: 'test',
      idempotencyKey: 'pf-ivy-hold',
    },
  ]);
  // A1 YES mid 0.546: 10 contracts are worth 5.46.
  await insertPosition(app.services.db.prisma, {
    userId: 'pf-ivy',
    market: mk.A1,
    outcome: 'yes',
    status: 'open',
    size: '10',
    costBasis: '5',
    realizedPnl: '0',
    fees: '0',
  });
});
afterAll(async () => {
  await app.close();
  await chain.close();
});

describe('overview balances', () => {
  it('adds the ledger, the on-chain value and the positions value into the equity', async () => {
    chain.handle((req) => {
      const { chain: c } = req.body as { chain: string };
      return c === 'polygon'
        ? { body: { nativeUsdPrice: '0.5', balances: [{ address: WALLET, usdc: '12.34', native: '2' }] } }
        : { body: { nativeUsdPrice: '150', balances: [] } };
    });
    const r = await app.as('pf-ivy').get('/api/portfolio/overview');
    expect(r.status).toBe(200);
    // 200.25 + 50.25 + (12.34 + 2 × 0.50) + 5.46
    expect((r.body as PortfolioOverviewQuery['portfolio']).balances).toEqual({
      currency: 'USD',
      available: 200.25,
      held: 50.25,
      onchain: 13.34,
      onchainError: null,
      positionsValue: 5.46,
      equity: 269.3,
    });
  });

  it('leaves the on-chain value out, and says so, when the upstream fails', async () => {
    chain.handle(() => ({ status: 503 }));
    const r = await app.as('pf-ivy').get('/api/portfolio/overview');
    expect(r.status).toBe(200);
    expect((r.body as PortfolioOverviewQuery['portfolio']).balances).toEqual({
      currency: 'USD',
      available: 200.25,
      held: 50.25,
      onchain: null,
      onchainError: 'on-chain balances are unavailable',
      positionsValue: 5.46,
      equity: 255.96,
    });
  });
});
