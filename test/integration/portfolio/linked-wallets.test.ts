import type {
  ImportWalletMutation,
  PortfolioAnalyticsQuery,
  PortfolioHistoryQuery,
  PortfolioPositionsQuery,
  PositionsByMarketQuery,
  WalletsQuery,
} from '../../../schema/generated/operations';
import { startTestApp, type TestApp } from '../../support/app';
import { pinnedWorld } from '../../support/pinned-world';
import { at, insertOrder, insertPosition, pinnedMarkets, type MarketRef } from './portfolio-fixtures';

/**
 * "Across wallets": the caller's service positions and fills merged with the
 * on-chain venue_a activity of the polygon wallets they linked (imported),
 * as the chain indexer and trader stats store it (TraderPosition and Trade,
 * trader id = the lower-case address). The provisioned wallet is left out.
 *
 * Erin, YES mids at the pinned clock: A2 0.5385, B1 0.52.
 *   service  B1 YES open 10 @ cost 5.00, fees 0.10, realized −0.10 → 5.20, +0.20
 *   wallet   A2 YES open 20 @ cost 10.00, realized +2.00           → 10.77, +0.77
 *   wallet   C1 NO  flat, realized −3.00 (a crypto loss)
 */
let app: TestApp;
let mk: ReturnType<typeof pinnedMarkets>;
const LINKED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
let walletId: string;
let provisioned: string;
let servicePosition: string;

async function traderPosition(
  wallet: string,
  m: MarketRef,
  outcome: 'yes' | 'no',
  size: string,
  costBasis: string,
  realizedPnl: string,
) {
  await app.services.db.prisma.traderPosition.create({
    data: {
      venue: 'venue_a',
      traderId: wallet.toLowerCase(),
      venueMarketId: m.marketId,
      outcome,
      size,
      costBasis,
      realizedPnl,
    },
  });
}

async function trade(
  wallet: string,
  m: MarketRef,
  id: string,
  side: 'buy' | 'sell',
  outcome: 'yes' | 'no',
  price: string,
  size: string,
  iso: string,
) {
  await app.services.db.prisma.trade.create({
    data: {
      venue: 'venue_a',
      venueTradeId: id,
      venueMarketId: m.marketId,
      venueTraderId: wallet.toLowerCase(),
      side,
      outcome,
      price,
      size,
      filledAt: at(iso),
    },
  });
}

beforeAll(async () => {
  const p = pinnedWorld();
  app = await startTestApp({}, {}, p);
  mk = pinnedMarkets(p.world);
  const user = app.as('pf-erin');
  expect((await user.post('/auth/setup')).status).toBe(200);
  const imported = await user.post('/api/wallets/import', { chain: 'polygon', address: LINKED.toLowerCase() });
  expect(imported.status).toBe(201);
  walletId = (imported.body as ImportWalletMutation['importWallet']).id;
  const wallets = (await user.get('/api/wallets')).body as WalletsQuery['wallets'];
  provisioned = wallets.find((w) => w.chain === 'polygon' && w.kind === 'provisioned')!.address;

  servicePosition = await insertPosition(app.services.db.prisma, {
    userId: 'pf-erin',
    market: mk.B1,
    outcome: 'yes',
    status: 'open',
    size: '10',
    costBasis: '5',
    realizedPnl: '-0.1',
    fees: '0.1',
    updatedAt: at('2026-11-13T12:00:00Z'),
  });
  await insertOrder(app.services.db.prisma, {
    userId: 'pf-erin',
    market: mk.B1,
    outcome: 'yes',
    side: 'buy',
    state: 'filled',
    requested: '10',
    positionId: servicePosition,
    createdAt: at('2026-11-13T12:00:00Z'),
    fills: [{ price: '0.5', size: '10', fee: '0.1', at: at('2026-11-13T12:00:00Z') }],
  });
  await traderPosition(LINKED, mk.A2, 'yes', '20', '10', '2');
  await traderPosition(LINKED, mk.C1, 'no', '0', '0', '-3');
  await trade(LINKED, mk.A2, 'w-1', 'buy', 'yes', '0.4', '25', '2026-11-12T08:00:00Z');
  await trade(LINKED, mk.A2, 'w-2', 'sell', 'yes', '0.6', '5', '2026-11-14T08:00:00Z');
  // The provisioned wallet trades through the service only: its on-chain rows must not count twice.
  await traderPosition(provisioned, mk.A1, 'yes', '1000', '500', '0');
  await trade(provisioned, mk.A1, 'p-1', 'buy', 'yes', '0.5', '1000', '2026-11-14T09:00:00Z');
});
afterAll(async () => {
  await app.close();
});

const erin = (path: string) => app.as('pf-erin').get(path);

describe('positions across wallets', () => {
  it('lists open service and linked-wallet positions together', async () => {
    const r = await erin('/api/portfolio');
    expect(r.status).toBe(200);
    const body = r.body as PortfolioPositionsQuery['portfolio']['positions'];
    expect(body).toMatchObject({ total: 2, costBasis: 15, marketValue: 15.97, unrealizedPnl: 0.97 });
    const wallet = body.data.find((p) => p.source === 'wallet')!;
    expect(wallet).toMatchObject({
      id: `wallet:${LINKED.toLowerCase()}:${mk.A2.marketId}:yes`,
      walletAddress: LINKED,
      marketId: mk.A2.marketId,
      size: 20,
      avgPrice: 0.5,
      fees: null,
      marketValue: 10.77,
      unrealizedPnl: 0.77,
      mark: { price: 0.5385, source: 'live' },
      market: { event: { category: 'politics' } },
    });
    expect(body.data.find((p) => p.source === 'service')).toMatchObject({
      id: servicePosition,
      walletAddress: null,
      marketValue: 5.2,
      unrealizedPnl: 0.2,
    });
  });

  it('splits the summary by source', async () => {
    const r = await erin('/api/portfolio/summary');
    expect(r.body).toMatchObject({
      realizedPnl: -1.1, // −0.10 + 2.00 − 3.00
      unrealizedPnl: 0.97,
      fees: 0.1,
      openPositions: 2,
      closedPositions: 1,
      bySource: [
        {
          source: 'wallet',
          positions: 1,
          costBasis: 10,
          marketValue: 10.77,
          realizedPnl: -1,
          unrealizedPnl: 0.77,
          fees: 0,
        },
        {
          source: 'service',
          positions: 1,
          costBasis: 5,
          marketValue: 5.2,
          realizedPnl: -0.1,
          unrealizedPnl: 0.2,
          fees: 0.1,
        },
      ],
    });
  });

  it('counts the wallet’s closes in the category win rates', async () => {
    const r = await erin('/api/portfolio/analytics');
    const categories = (r.body as PortfolioAnalyticsQuery['portfolio']['analytics']).categories;
    expect(categories).toEqual([
      expect.objectContaining({
        category: 'politics',
        openPositions: 2,
        exposure: 15.97,
        closedPositions: 0,
        winRate: null,
      }),
      expect.objectContaining({
        category: 'crypto',
        openPositions: 0,
        closedPositions: 1,
        wins: 0,
        losses: 1,
        winRate: 0,
        realizedPnl: -3,
      }),
    ]);
  });

  it('shows the wallet position on its market', async () => {
    const r = await erin(`/api/positions/by-market/venue_a/${mk.A2.marketId}`);
    expect((r.body as PositionsByMarketQuery['positionsByMarket']).data.map((p) => p.source)).toEqual(['wallet']);
  });

  it('keeps /api/positions to the service positions (the ones the caller can sell)', async () => {
    const r = await erin('/api/positions');
    expect(r.body).toMatchObject({ total: 1, data: [{ id: servicePosition }] });
  });
});

describe('history across wallets', () => {
  it('merges service fills and the linked wallet’s on-chain fills, newest first', async () => {
    const r = await erin('/api/portfolio/history');
    expect(r.status).toBe(200);
    const page = r.body as PortfolioHistoryQuery['portfolio']['history'];
    expect(page.total).toBe(3);
    expect(page.data.map((t) => [t.source, t.side, t.price, t.size, t.notional, t.fee])).toEqual([
      ['wallet', 'sell', 0.6, 5, 3, null],
      ['service', 'buy', 0.5, 10, 5, 0.1],
      ['wallet', 'buy', 0.4, 25, 10, null],
    ]);
    expect(page.data[0]).toMatchObject({
      walletAddress: LINKED,
      eventId: mk.A2.eventId,
      marketTitle: expect.any(String),
    });
    const second = await erin('/api/portfolio/history?limit=1&offset=1');
    expect(second.body).toMatchObject({ total: 3, data: [{ source: 'service' }] });
  });
});

describe('unlinking a wallet', () => {
  it('drops its positions and trades from the portfolio', async () => {
    expect((await app.as('pf-erin').delete(`/api/wallets/${walletId}`)).status).toBe(200);
    expect((await erin('/api/portfolio')).body).toMatchObject({ total: 1, data: [{ source: 'service' }] });
    expect((await erin('/api/portfolio/history')).body).toMatchObject({ total: 1 });
  });
});
