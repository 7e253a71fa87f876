import { defineModule, provide } from '../../../kernel';
import { EventsService } from '../../events/events.service';
import { DiscoveryResolver } from './discovery.resolver';
import { DiscoveryService } from './discovery.service';
import { HomeResolver } from './home.resolver';
import { HomeService } from './home.service';
import { ProductMetricsService } from './product-metrics.service';
import { UserStatsResolver } from './user-stats.resolver';
import { UserStatsService } from './user-stats.service';

/** The home screen, the discovery hub, public user stats and product metrics. */
export const homeModule = defineModule({
  name: 'social/home',
  resolvers: [HomeResolver, DiscoveryResolver, UserStatsResolver],
  services: [
    provide(HomeService, ({ db, get }) => new HomeService(db.prisma, get(EventsService))),
    provide(DiscoveryService, ({ db }) => new DiscoveryService(db.prisma)),
    provide(UserStatsService, ({ db }) => new UserStatsService(db.prisma)),
    provide(ProductMetricsService, ({ db, now }) => new ProductMetricsService(db.prisma, now)),
  ],
});
