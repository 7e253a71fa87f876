import { defineModule, provide } from '../../kernel';
import { EventsService } from '../events/events.service';
import { MarketBooks } from './market-books';
import { RoutingResolver } from './routing.resolver';
import { RoutingService } from './routing.service';
import { routingSettings } from './routing.settings';

export const routingModule = defineModule({
  name: 'routing',
  settings: routingSettings,
  resolvers: [RoutingResolver],
  services: [
    provide(MarketBooks, ({ venues }) => new MarketBooks(venues)),
    provide(
      RoutingService,
      ({ db, config, now, get, logger }) =>
        new RoutingService(db.prisma, get(EventsService), get(MarketBooks), {
          fees: config.trading.fees,
          routeTtlSeconds: config.trading.routeTtlSeconds,
          now,
          logger,
        }),
    ),
  ],
  tasks: [
    {
      name: 'route intent purge',
      exclusive: true,
      start: ({ get, config }) => get(RoutingService).start(config.trading.routeIntentPurgeMs),
      stop: ({ get }) => get(RoutingService).stop(),
    },
  ],
  rateLimits: (config) => ({ routeIntents: { limit: config.limits.routeIntentsPerMinute, windowMs: 60_000 } }),
});
