import { SignedCursor } from '../../http/signed-cursor';
import { defineModule, provide } from '../../kernel';
import { FEED_TOPIC } from './feed.limits';
import { FeedResolver } from './feed.resolver';
import { FeedService } from './feed.service';

export const feedModule = defineModule({
  name: 'feed',
  resolvers: [FeedResolver],
  services: [
    provide(
      FeedService,
      ({ db, infra, config, now }) =>
        new FeedService(db.prisma, infra.pubsub, new SignedCursor(config.cursorSecret), now),
    ),
  ],
  topics: { publishes: [FEED_TOPIC] },
});
