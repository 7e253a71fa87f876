import { defineModule, provide } from '../../../kernel';
import { FollowsResolver } from './follows.resolver';
import { FollowsService } from './follows.service';
import { followsSettings } from './follows.settings';

export const followsModule = defineModule({
  name: 'social/follows',
  settings: followsSettings,
  resolvers: [FollowsResolver],
  services: [provide(FollowsService, ({ db }) => new FollowsService(db.prisma))],
  rateLimits: (config) => ({ follows: { limit: config.limits.followsPerMinute, windowMs: 60_000 } }),
});
