import { defineModule, provide } from '../../kernel';
import { NotificationsResolver } from './notifications.resolver';
import { NotificationsService, NOTIFY, NOTIFY_IN_STATEMENT, Notify, NotifyInStatement } from './notifications.service';
import { HttpPushClient, SimulatedPushClient } from './push.client';
import { notificationsSettings } from './notifications.settings';

export const notificationsModule = defineModule({
  name: 'notifications',
  settings: notificationsSettings,
  resolvers: [NotificationsResolver],
  services: [
    provide(NotificationsService, ({ db, config, logger }) => {
      const push = config.push.url
        ? new HttpPushClient(config.push.url, config.push.apiKey)
        : new SimulatedPushClient();
      return new NotificationsService(
        db.prisma,
        push,
        (err) => logger.warn({ err }, 'push delivery failed'),
        config.push.tokensPerUser,
      );
    }),
    // Notifying never fails the write that caused it, unless it is part of that write's transaction.
    provide(NOTIFY, ({ get, logger }): Notify => {
      const notifications = get(NotificationsService);
      return (items, db) =>
        db === undefined
          ? notifications.notify(items).catch((err: unknown) => logger.error({ err }, 'storing notifications failed'))
          : notifications.notify(items, db);
    }),
    provide(NOTIFY_IN_STATEMENT, ({ get }): NotifyInStatement => {
      const notifications = get(NotificationsService);
      return (items) => notifications.statementPart(items);
    }),
  ],
  rateLimits: (config) => ({ pushTokens: { limit: config.limits.pushTokensPerMinute, windowMs: 60_000 } }),
});
