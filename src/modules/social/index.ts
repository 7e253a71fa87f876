export { FollowsService, type FollowView, type FollowPage } from './follows.service';
export { FollowsResolver, FOLLOW_LIMITS } from './follows.resolver';
export { normalizeTraderId } from './trader-id';
