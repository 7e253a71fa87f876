import { IsOptional, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ArgsType, Field, Int, registerEnumType } from 'type-graphql';
import { COMMENT_LIMITS as L } from './comments.limits';

export enum CommentSortEnum {
  recent = 'recent',
  top = 'top',
}
registerEnumType(CommentSortEnum, { name: 'CommentSort' });

@ArgsType()
export class CommentPagingArgs {
  @Field(() => Int, { defaultValue: L.limit.default, description: `${L.limit.min}..${L.limit.max}` })
  @Min(L.limit.min)
  @Max(L.limit.max)
  limit: number;

  @Field(() => Int, { defaultValue: L.offset.default })
  @Min(L.offset.min)
  @Max(L.offset.max)
  offset: number;
}

@ArgsType()
export class EventCommentsArgs extends CommentPagingArgs {
  @Field({ description: 'Event slug or id.' })
  @MaxLength(200)
  event: string;

  @Field(() => CommentSortEnum, { defaultValue: CommentSortEnum.recent })
  sort: CommentSortEnum;
}

@ArgsType()
export class TradeCommentsArgs extends CommentPagingArgs {
  @Field({ description: '`venue:venueTradeId`.' })
  @MaxLength(300)
  tradeId: string;

  @Field(() => CommentSortEnum, { defaultValue: CommentSortEnum.recent })
  sort: CommentSortEnum;
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
  @Field()
  @MaxLength(300)
  tradeId: string;
}

@ArgsType()
export class CommentIdArgs {
  @Field()
  @MaxLength(100)
  commentId: string;
}
