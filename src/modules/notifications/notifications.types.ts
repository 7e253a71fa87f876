import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { OffsetPageType } from '../../graphql/paging';
import type { NotificationPage, NotificationView } from './notifications.service';

@ObjectType('Notification')
export class NotificationType implements NotificationView {
  @Field(() => ID)
  id: string;
  @Field({ description: 'order_fill, followed_trade, comment_reply, comment_like, reward or withdrawal.' })
  kind: string;
  @Field()
  title: string;
  @Field()
  body: string;
  @Field(() => GraphQLJSONObject, { description: 'Ids to link to (eventId, commentId, tradeId…).' })
  data: Record<string, string>;
  @Field()
  read: boolean;
  @Field(() => Date, { nullable: true })
  readAt: Date | null;
  @Field()
  createdAt: Date;
}

@ObjectType('NotificationPage')
export class NotificationPageType
  extends OffsetPageType<NotificationView>(NotificationType)
  implements NotificationPage
{
  @Field(() => Int)
  unreadCount: number;
}

@ObjectType('MarkReadResult')
export class MarkReadResultType {
  @Field(() => Int, { description: 'Notifications that were unread and are now read.' })
  marked: number;
}

@ObjectType('PushToken')
export class PushTokenType {
  @Field()
  token: string;
  @Field()
  platform: string;
  @Field()
  createdAt: Date;
}

@ObjectType('PushTokenRemoval')
export class PushTokenRemovalType {
  @Field()
  removed: boolean;
}
