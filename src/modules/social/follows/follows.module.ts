import { defineModule, provide } from '../../../kernel';
import { FollowsResolver } from './follows.resolver';
import { FollowsService } from './follows.service';

export const followsModule = defineModule({
  name: 'social/follows',
  resolvers: [FollowsResolver],
  services: [provide(FollowsService, ({ db }) => new FollowsService(db.prisma))],
});
