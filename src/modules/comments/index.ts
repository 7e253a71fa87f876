export {
  CommentsService,
  type CommentView,
  type CommentPage,
  type CommentTarget,
  type LikeState,
} from './comments.service';
export { COMMENT_LIMITS, COMMENT_SORTS } from './comments.limits';
