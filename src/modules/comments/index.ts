export {
  CommentsService,
  type CommentView,
  type CommentPage,
  type CommentTarget,
  type LikeState,
} from './comments.service';
export { CommentsResolver } from './comments.resolver';
export { createCommentsLoaders, type CommentsLoaders } from './comments.loaders';
export { COMMENT_LIMITS, COMMENT_SORTS } from './comments.limits';
