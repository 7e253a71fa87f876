import type {
  ExecutionEventFieldsFragment,
  PortfolioHistoryQuery,
  PositionQuery,
} from '../../../schema/generated/operations';
import { startTestApp, type TestApp } from '../../support/app';
import { pinnedWorld } from '../../support/pinned-world';
import { names, postStream } from '../../support/execution-stream';
import { fund } from '../../support/funding';
import { MICROS_PER_USD, micros, usd } from '../../support/money';
import { pinnedMarkets } from './portfolio-fixtures';

/**
 * End to end: a funded user buys and then partly sells through the execution
 * streams (simulation mode, stored for a bearer caller), and the portfolio
 * reads what execution wrote. At the pinned clock A1's book is 0.542 / 0.55
 * (mid 0.546), deep enough at the top for these sizes.
 */
let app: TestApp;
let mk: ReturnType<typeof pinnedMarkets>;

type History = PortfolioHistoryQuery['portfolio']['history'];
type Fill = Pick<NonNullable<ExecutionEventFieldsFragment['fill']>, 'price' | 'size' | 'fee'>;

/** POSTs and reads the SSE answer to its end; returns the event names, the fills streamed and the position. */
async function stream(path: string, body: unknown) {
  const r = await postStream(`${app.url}${path}`, body, await app.bearer('pf-e2e'));
  const fills = r.events.flatMap(({ data: { fill } }): Fill[] =>
    fill ? [{ price: fill.price, size: fill.size, fee: fill.fee }] : [],
  );
  const positionId = r.events.reduce<string | null>((id, e) => e.data.position?.id ?? id, null);
  return { status: r.status, events: names(r), fills, positionId };
}

const sum = (fills: Fill[], f: (x: Fill) => bigint) => fills.reduce((s, x) => s + f(x), 0n);
const notional = (x: Fill) => (micros(x.price) * micros(x.size) + 500_000n) / MICROS_PER_USD;

beforeAll(async () => {
  const p = pinnedWorld();
  app = await startTestApp({}, {}, p);
  mk = pinnedMarkets(p.world);
  await fund(app, 'pf-e2e', '100');
});
afterAll(async () => {
  await app.close();
});

describe('the paper portfolio after simulated trading through /execute', () => {
  let positionId: string;
  let buys: Fill[];

  it('shows the bought position marked at the mid, its order and its fills', async () => {
    const r = await stream('/execute', {
      marketId: `venue_a:${mk.A1.marketId}`,
      side: 'buy',
      outcome: 'yes',
      size: 10,
      mode: 'simulation',
    });
    expect(r.status).toBe(200);
    expect(r.events.at(-1)).toBe('completed');
    expect(r.positionId).not.toBeNull();
    positionId = r.positionId!;
    buys = r.fills;
    expect(usd(sum(buys, (f) => micros(f.size)))).toBe(10);
    expect(buys.every((f) => f.price === 0.55)).toBe(true); // the best ask covers 10 contracts

    const cost = sum(buys, notional); // 10 × 0.55 = 5.50
    const fees = sum(buys, (f) => micros(f.fee));
    const portfolio = await app.as('pf-e2e').get('/api/portfolio?mode=simulation');
    expect(portfolio.status).toBe(200);
    expect(portfolio.body).toMatchObject({
      total: 1,
      costBasis: usd(cost),
      marketValue: 5.46, // 10 × 0.546
      unrealizedPnl: usd(5_460_000n - cost),
      data: [
        {
          id: positionId,
          source: 'service',
          status: 'open',
          size: 10,
          avgPrice: 0.55,
          mark: { price: 0.546, source: 'live' },
        },
      ],
    });
    const orders = await app.as('pf-e2e').get('/api/orders?state=filled&mode=simulation');
    expect(orders.body).toMatchObject({
      total: 1,
      data: [{ side: 'buy', filledSize: 10, positionId, fills: buys.map((f) => expect.objectContaining(f)) }],
    });
    const history = await app.as('pf-e2e').get('/api/portfolio/history?mode=simulation');
    expect((history.body as History).total).toBe(buys.length);
    const summary = await app.as('pf-e2e').get('/api/portfolio/summary?mode=simulation');
    expect(summary.body).toMatchObject({ fees: usd(fees), realizedPnl: usd(-fees), openPositions: 1 });
  });

  it('shows the realized PnL of a partial sell and both orders on the position', async () => {
    const r = await stream(`/api/positions/${positionId}/sell`, { size: 4 });
    expect(r.status).toBe(200);
    expect(r.events.at(-1)).toBe('completed');
    const sells = r.fills;
    // Sold 4 of 10 bought at 0.55: the basis released is 4 × 0.55 = 2.20.
    const proceeds = sum(sells, notional);
    const fees = sum([...buys, ...sells], (f) => micros(f.fee));
    const realized = proceeds - 2_200_000n - fees;
    const position = await app.as('pf-e2e').get(`/api/positions/${positionId}`);
    expect(position.status).toBe(200);
    expect(position.body).toMatchObject({
      size: 6,
      costBasis: 3.3,
      avgPrice: 0.55,
      realizedPnl: usd(realized),
      marketValue: 3.276, // 6 × 0.546
      unrealizedPnl: -0.024,
    });
    expect((position.body as PositionQuery['position']).orders.map((o) => o.side)).toEqual(['sell', 'buy']);
    const summary = await app.as('pf-e2e').get('/api/portfolio/summary?mode=simulation');
    expect(summary.body).toMatchObject({ realizedPnl: usd(realized), unrealizedPnl: -0.024, fees: usd(fees) });
    const history = await app.as('pf-e2e').get('/api/portfolio/history?mode=simulation');
    expect((history.body as History).data[0].side).toBe('sell');
  });
});
