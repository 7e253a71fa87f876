import { defineModule, provide } from '../../kernel';
import { NOTIFY } from '../notifications/notifications.service';
import { commentsLoaders } from './comments.loaders';
import { CommentsResolver } from './comments.resolver';
import { CommentsService } from './comments.service';
import { commentsSettings } from './comments.settings';

export const commentsModule = defineModule({
  name: 'comments',
  settings: commentsSettings,
  resolvers: [CommentsResolver],
  services: [provide(CommentsService, ({ db, get }) => new CommentsService(db.prisma, get(NOTIFY)))],
  loaders: [commentsLoaders],
  rateLimits: (config) => ({
    comments: { limit: config.limits.commentsPerMinute, windowMs: 60_000 },
    likes: { limit: config.limits.likesPerMinute, windowMs: 60_000 },
  }),
});
