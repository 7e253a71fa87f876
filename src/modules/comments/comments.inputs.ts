import { IsOptional, MaxLength, MinLength } from 'class-validator';
import { ArgsType, Field } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums';
import { OffsetPagingArgs } from '../../graphql/paging';
import { COMMENT_LIMITS as L, COMMENT_SORTS, type CommentSort } from './comments.limits';

export const CommentSortEnum = graphqlEnum(COMMENT_SORTS, { name: 'CommentSort' });

/** The trade ids the service shows, each a comment target (see `CommentsService.tradeTarget`). */
const TRADE_ID_DESCRIPTION =
  'A trade id as the service shows it: `venue:venueTradeId` (market, trader and event trades, the live ' +
  'stream), or `trade:<id>` / `fill:<id>` (portfolio history). `trade:<id>` is the same thread as its ' +
  '`venue:venueTradeId`.';

@ArgsType()
export class CommentPagingArgs extends OffsetPagingArgs(L, { describe: ['limit'] }) {}

@ArgsType()
export class EventCommentsArgs extends CommentPagingArgs {
  @Field({ description: 'Event slug or id.' })
  @MaxLength(200)
  event: string;

  @Field(() => CommentSortEnum, { defaultValue: CommentSortEnum.recent })
  sort: CommentSort;
}

@ArgsType()
export class TradeCommentsArgs extends CommentPagingArgs {
  @Field({ description: TRADE_ID_DESCRIPTION })
  @MaxLength(300)
  tradeId: string;

  @Field(() => CommentSortEnum, { defaultValue: CommentSortEnum.recent })
  sort: CommentSort;
}

@ArgsType()
export class CommentRepliesArgs extends CommentPagingArgs {
  @Field()
  @MaxLength(100)
  commentId: string;
}

@ArgsType()
export class CommentBodyArgs {
  @Field({ description: `${L.body.min}..${L.body.max} characters.` })
  @MinLength(L.body.min)
  @MaxLength(L.body.max)
  body: string;

  @Field(() => String, { nullable: true, description: 'Reply to this comment.' })
  @IsOptional()
  @MaxLength(100)
  parentId?: string;
}

@ArgsType()
export class CreateEventCommentArgs extends CommentBodyArgs {
  @Field({ description: 'Event slug or id.' })
  @MaxLength(200)
  event: string;
}

@ArgsType()
export class CreateTradeCommentArgs extends CommentBodyArgs {
  @Field({ description: TRADE_ID_DESCRIPTION })
  @MaxLength(300)
  tradeId: string;
}

@ArgsType()
export class CommentIdArgs {
  @Field()
  @MaxLength(100)
  commentId: string;
}
