import DataLoader from 'dataloader';
import { defineLoaders, type LoadersOf } from '../../kernel';
import { marketsLoaders } from '../markets/markets.loaders';
import { MarksService, type YesMark } from './marks.service';
import type { FillView, OrderView, PositionView } from './portfolio.models';
import { PortfolioService } from './portfolio.service';

/**
 * Per-request loaders of the portfolio; batches return in key order. Marks
 * batch every market of a request into one call of the marks service (one
 * top-of-book request per market, venues in parallel), so a position's `mark`,
 * the summary and the balances share what was fetched.
 */
export const portfolioLoaders = defineLoaders('portfolio', (services, loaders) => {
  const portfolio = services.get(PortfolioService);
  const marks = services.get(MarksService);
  const markets = loaders.get(marketsLoaders);
  const catalog = async (keys: readonly string[]) =>
    (await markets.marketById.loadMany(keys)).map((m) => (m instanceof Error ? null : m));
  return {
    /** Every service position of a user (all statuses). */
    servicePositions: new DataLoader<string, PositionView[]>((ids) => portfolio.servicePositionsOf(ids)),
    /** Every on-chain position of a user's linked wallets. */
    walletPositions: new DataLoader<string, PositionView[]>((ids) => portfolio.walletPositionsOf(ids)),
    /** YES mark by `venue:marketId`. */
    yesMark: new DataLoader<string, YesMark>((keys) => marks.yesMarks(keys, catalog)),
    ordersOfPosition: new DataLoader<PositionView, OrderView[], string>((ps) => portfolio.ordersOfPositions(ps), {
      cacheKeyFn: (p) => p.id,
    }),
    fillsOfOrder: new DataLoader<string, FillView[]>((ids) => portfolio.fillsOfOrders(ids)),
    /** The catalog's markets and events (shared with the market screens' loaders). */
    marketById: markets.marketById,
    eventById: markets.eventById,
  };
});

export type PortfolioLoaders = LoadersOf<typeof portfolioLoaders>;
