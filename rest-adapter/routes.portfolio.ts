import { z } from 'zod';
import {
  OrdersDocument,
  PortfolioAnalyticsDocument,
  PortfolioHistoryDocument,
  PortfolioOverviewDocument,
  PortfolioPositionsDocument,
  PortfolioSummaryDocument,
  PositionDocument,
  PositionsByMarketDocument,
  PositionsDocument,
} from '../schema/generated/operations';
import { ORDER_STATES, PORTFOLIO_LIMITS as L, POSITION_STATUSES } from '../src/modules/portfolio/portfolio.limits';
import { VENUES } from '../src/venues/venue.models';
import { EXECUTION_MODES } from '../src/modules/execution/execution.limits';
import { int, oneOf, requiredStr } from './params';
import { route } from './route.types';

const common = { surface: 'trading', method: 'GET', auth: 'bearer', tags: ['portfolio'] } as const;
const paging = {
  limit: int(L.limit.min, L.limit.max, L.limit.default),
  offset: int(L.offset.min, L.offset.max, L.offset.default),
};
/** `live` (the default) or `simulation`: the paper account. */
const mode = { mode: oneOf(EXECUTION_MODES) };
const modeOnly = { query: z.object(mode) };

/**
 * The caller's portfolio, positions and orders. Portfolio routes select one
 * field of `portfolio` each; the overview selects them all in one query.
 * Every read shows the live account unless `mode=simulation` asks for the
 * paper one.
 */
export const portfolioRoutes = [
  route({
    ...common,
    id: 'portfolioOverview',
    path: '/api/portfolio/overview',
    params: modeOnly,
    summary:
      'The portfolio screen in one response: balances (ledger, on-chain, positions value, equity), open ' +
      'positions with marks, PnL summary with exposure, and the newest trades.',
    document: PortfolioOverviewDocument,
    result: 'portfolio',
    errors: [400, 401, 429],
  }),
  route({
    ...common,
    id: 'portfolioPositions',
    path: '/api/portfolio',
    params: modeOnly,
    summary:
      "Open positions across the service and the caller's linked (imported polygon) wallets, marked at the " +
      "venues' mids (last known price, said so, when a venue is down).",
    document: PortfolioPositionsDocument,
    result: 'portfolio.positions',
    errors: [400, 401, 429],
  }),
  route({
    ...common,
    id: 'portfolioSummary',
    path: '/api/portfolio/summary',
    params: modeOnly,
    summary: 'Realized and unrealized PnL, fees, and exposure by venue, category and source.',
    document: PortfolioSummaryDocument,
    result: 'portfolio.summary',
    errors: [400, 401, 429],
  }),
  route({
    ...common,
    id: 'portfolioHistory',
    path: '/api/portfolio/history',
    summary:
      `Trades merged across the service and linked wallets, newest first (limit ` +
      `${L.limit.min}..${L.limit.max}, offset).`,
    params: { query: z.object({ ...paging, ...mode }) },
    document: PortfolioHistoryDocument,
    result: 'portfolio.history',
    errors: [400, 401, 429],
  }),
  route({
    ...common,
    id: 'portfolioAnalytics',
    path: '/api/portfolio/analytics',
    params: modeOnly,
    summary:
      'Win rate and exposure per category, exposure per venue, and the weekly rank by volume traded through ' +
      'the service.',
    document: PortfolioAnalyticsDocument,
    result: 'portfolio.analytics',
    errors: [400, 401, 429],
  }),
  route({
    ...common,
    id: 'listPositions',
    path: '/api/positions',
    summary:
      `The caller's service positions, most recently changed first (status ` +
      `${POSITION_STATUSES.join(', ')}; limit ${L.limit.min}..${L.limit.max}, offset).`,
    params: { query: z.object({ status: oneOf(POSITION_STATUSES), ...paging, ...mode }) },
    document: PositionsDocument,
    result: 'positions',
    errors: [400, 401],
  }),
  route({
    ...common,
    id: 'getPosition',
    path: '/api/positions/{positionId}',
    summary: "One of the caller's positions with its mark and linked orders (404 when unknown or someone else's).",
    params: { path: z.object({ positionId: requiredStr(L.id.max) }) },
    document: PositionDocument,
    result: 'position',
    errors: [400, 401, 404],
  }),
  route({
    ...common,
    id: 'positionsByMarket',
    path: '/api/positions/by-market/{venue}/{marketId}',
    summary:
      "The caller's positions in one venue market: both outcomes, any status, service and linked wallets " +
      '(empty when none).',
    params: {
      path: z.object({
        venue: z.enum(VENUES, { error: `must be one of ${VENUES.join(', ')}` }),
        marketId: requiredStr(L.id.max),
      }),
      query: z.object(mode),
    },
    document: PositionsByMarketDocument,
    result: 'positionsByMarket',
    errors: [400, 401],
  }),
  route({
    ...common,
    id: 'listOrders',
    path: '/api/orders',
    summary: `The caller's orders with their fills, newest first; \`state\` filters on ${ORDER_STATES.join(', ')}.`,
    params: { query: z.object({ state: oneOf(ORDER_STATES), ...paging, ...mode }) },
    document: OrdersDocument,
    result: 'orders',
    errors: [400, 401],
  }),
];
