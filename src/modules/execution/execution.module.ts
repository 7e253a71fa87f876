import { defineModule, provide } from '../../kernel';
import { VENUES } from '../../venues/venue.models';
import { EventsService } from '../events/events.service';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { FeeListeners } from '../ledger/fee-events';
import { LedgerService } from '../ledger/ledger.service';
import { MarketsService } from '../markets/markets.service';
import { NOTIFY, NOTIFY_IN_STATEMENT } from '../notifications/notifications.service';
import { PaperAccounts } from '../paper/paper.service';
import { MarketBooks } from '../routing/market-books';
import { ExecutionServiceClient } from './execution-service.client';
import { ExecutionResolver } from './execution.resolver';
import { ExecutionService } from './execution.service';
import { executionSettings } from './execution.settings';
import { TradeRecorder } from './trade-recorder';
import { VenueBOrders } from './venue-b-orders';

export const executionModule = defineModule({
  name: 'execution',
  settings: executionSettings,
  resolvers: [ExecutionResolver],
  services: [
    provide(
      VenueBOrders,
      ({ config, venues, infra, logger }) =>
        new VenueBOrders(config, venues, { rateLimiter: infra.rateLimiter, logger }),
    ),
    // A service of its own: the account streams watch the orders it writes (`TradeRecorder.watch`).
    provide(
      TradeRecorder,
      ({ db, get, owner }) =>
        new TradeRecorder(db.prisma, get(LedgerService), get(FeeListeners), get(PaperAccounts), owner, db.sql, {
          notify: get(NOTIFY),
          inStatement: get(NOTIFY_IN_STATEMENT),
        }),
    ),
    provide(ExecutionService, ({ db, config, venues, venueSources, rateLimits, now, logger, get }) => {
      const { trading } = config;
      return new ExecutionService({
        prisma: db.prisma,
        markets: get(MarketsService),
        events: get(EventsService),
        books: get(MarketBooks),
        venues,
        recorder: get(TradeRecorder),
        idempotency: get(IdempotencyService),
        client: config.executionServiceUrl
          ? new ExecutionServiceClient(config.executionServiceUrl, config.upstreams.timeoutMs)
          : null,
        venueBOrders: get(VenueBOrders),
        simulated: {
          venues: VENUES.filter((v) => venueSources[v] === 'sim'),
          production: config.env === 'production',
        },
        fees: trading.fees,
        pollMs: trading.execution.pollMs,
        waitMs: trading.execution.waitMs,
        staleOrderMs: trading.execution.staleOrderMs,
        rateLimits,
        notify: get(NOTIFY),
        now,
        logger,
      });
    }),
  ],
  rateLimits: (config) => ({
    storedSimulation: { limit: config.limits.simulationsPerMinute, windowMs: 60_000 },
  }),
  tasks: [
    // Listed first, so stopped last: after the orders in flight have finished.
    { name: 'venue_b order client', stop: ({ get }) => get(VenueBOrders).close() },
    {
      // Per process: this process's orders in flight finish (and commit) on stop, before the database closes.
      name: 'orders in flight',
      stop: ({ get }) => get(ExecutionService).drain(),
    },
    {
      name: 'order reconciler',
      exclusive: true,
      start: ({ get, config }) => get(ExecutionService).startReconciler(config.trading.execution.reconcileMs),
      stop: ({ get }) => get(ExecutionService).stopReconciler(),
    },
  ],
});
