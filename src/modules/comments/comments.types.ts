import { Field, ID, Int, ObjectType } from 'type-graphql';
import { OffsetPageType } from '../../graphql/paging';
import type { CommentPage, CommentView, LikeState } from './comments.service';

@ObjectType('Comment', { description: 'A comment on an event or a trade; replies are one level deep.' })
export class CommentType implements CommentView {
  @Field(() => ID)
  id: string;
  @Field(() => String, { nullable: true })
  eventId: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'The trade: `venue:venueTradeId`, or `fill:<id>` for a fill through the service.',
  })
  tradeId: string | null;
  @Field(() => String, { nullable: true, description: 'The thread root this replies to.' })
  parentId: string | null;
  @Field({ description: 'The author (user id).' })
  authorId: string;
  @Field()
  body: string;
  @Field(() => Int)
  likeCount: number;
  @Field(() => Int)
  replyCount: number;
  @Field()
  createdAt: Date;
}

@ObjectType('CommentPage')
export class CommentPageType extends OffsetPageType<CommentView>(CommentType) implements CommentPage {}

@ObjectType('CommentLikeState')
export class LikeStateType implements LikeState {
  @Field(() => ID)
  commentId: string;
  @Field({ description: 'Whether the caller likes it now.' })
  liked: boolean;
  @Field(() => Int)
  likeCount: number;
}
