import { ArrayMaxSize, IsIn, IsOptional, Matches, MaxLength, MinLength } from 'class-validator';
import { ArgsType, Field } from 'type-graphql';
import { OffsetPagingArgs } from '../../graphql/paging';
import { NOTIFICATION_LIMITS as L, PUSH_PLATFORMS, type PushPlatform } from './notifications.limits';

@ArgsType()
export class NotificationsArgs extends OffsetPagingArgs(L, { describe: [] }) {
  @Field({ defaultValue: false, description: 'Only unread ones.' })
  unreadOnly: boolean;
}

@ArgsType()
export class MarkReadArgs {
  @Field(() => [String], { nullable: true, description: 'Omitted: all of them.' })
  @IsOptional()
  @ArrayMaxSize(L.readIds.max)
  @MaxLength(100, { each: true })
  ids?: string[];
}

@ArgsType()
export class PushTokenArgs {
  @Field({ description: "The device's push token (16 to 4096 printable characters)." })
  @MinLength(16)
  @MaxLength(4096)
  @Matches(/^[\x21-\x7e]+$/, { message: 'must be printable ASCII without spaces' })
  token: string;

  @Field(() => String, { description: 'ios, android or web.' })
  @IsIn([...PUSH_PLATFORMS])
  platform: PushPlatform;
}

@ArgsType()
export class PushTokenRemovalArgs {
  @Field()
  @MaxLength(4096)
  token: string;
}
