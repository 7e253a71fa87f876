import { defineModule, provide } from '../../kernel';
import { LedgerService } from '../ledger/ledger.service';
import { PaperAccounts } from '../paper/paper.service';
import { WalletsService } from '../wallets/wallets.service';
import { MarksService } from './marks.service';
import { PortfolioValuationService } from './portfolio-valuation.service';
import { portfolioLoaders } from './portfolio.loaders';
import { PortfolioResolver } from './portfolio.resolver';
import { PortfolioService } from './portfolio.service';
import { PositionsResolver, OrdersResolver, PortfolioTradeResolver } from './positions.resolver';
import { TradeHistoryService } from './trade-history.service';

export const portfolioModule = defineModule({
  name: 'portfolio',
  resolvers: [PortfolioResolver, PositionsResolver, OrdersResolver, PortfolioTradeResolver],
  services: [
    provide(PortfolioService, ({ db }) => new PortfolioService(db.prisma)),
    provide(TradeHistoryService, ({ db, now }) => new TradeHistoryService(db.prisma, now)),
    provide(MarksService, ({ venues, infra, now }) => new MarksService(venues, infra.cache, now)),
    provide(
      PortfolioValuationService,
      ({ get, logger }) =>
        new PortfolioValuationService(
          get(WalletsService),
          get(LedgerService),
          get(TradeHistoryService),
          get(PaperAccounts),
          logger,
        ),
    ),
  ],
  loaders: [portfolioLoaders],
});
