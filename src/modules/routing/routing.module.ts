import { defineModule, provide } from '../../kernel';
import { EventsService } from '../events/events.service';
import { MarketBooks } from './market-books';
import { RoutingResolver } from './routing.resolver';
import { RoutingService } from './routing.service';

export const routingModule = defineModule({
  name: 'routing',
  resolvers: [RoutingResolver],
  services: [
    provide(MarketBooks, ({ venues }) => new MarketBooks(venues)),
    provide(
      RoutingService,
      ({ db, config, now, get }) =>
        new RoutingService(db.prisma, get(EventsService), get(MarketBooks), {
          fees: config.trading.fees,
          routeTtlSeconds: config.trading.routeTtlSeconds,
          now,
        }),
    ),
  ],
});
