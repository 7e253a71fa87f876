import { defineModule, provide } from '../../kernel';
import { EventHistoryResolver } from './charts.resolver';
import { HistoryService } from './charts.service';

export const chartsModule = defineModule({
  name: 'charts',
  resolvers: [EventHistoryResolver],
  services: [
    provide(
      HistoryService,
      ({ venues, infra, now, logger }) =>
        new HistoryService(venues, infra.cache, {
          now,
          onVenueError: (venue, err) => logger.warn({ err, venue }, 'venue price history failed'),
        }),
    ),
  ],
});
