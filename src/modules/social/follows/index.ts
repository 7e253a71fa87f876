export { FollowsService, type FollowView, type FollowPage } from './follows.service';
export * from './follows.limits';
