import { defineModule, provide } from '../../kernel';
import { eventsLoaders } from './events.loaders';
import { EventsResolver, MarketFieldsResolver } from './events.resolver';
import { CATALOG_CHANGED_TOPIC } from './events.models';
import { EventsService } from './events.service';
import { eventsSettings } from './events.settings';

export const eventsModule = defineModule({
  name: 'events',
  settings: eventsSettings,
  resolvers: [EventsResolver, MarketFieldsResolver],
  services: [
    provide(EventsService, ({ db, memo }) => new EventsService(db.prisma, memo('events', CATALOG_CHANGED_TOPIC))),
  ],
  loaders: [eventsLoaders],
  rateLimits: (config) => ({ discover: { limit: config.limits.discoverPerMinute, windowMs: 60_000 } }),
});
