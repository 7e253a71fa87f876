import { ArrayMaxSize, IsIn, IsOptional, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Args, ArgsType, Ctx, Field, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { NotificationsService, PUSH_PLATFORMS, type PushPlatform } from './notifications.service';
import { MarkReadResultType, NotificationPageType, PushTokenRemovalType, PushTokenType } from './notifications.types';
import type { Preferences } from './preferences.spec';

export const NOTIFICATION_LIMITS = {
  limit: { min: 1, max: 100, default: 20 },
  offset: { max: 100_000 },
  readIds: { max: 500 },
} as const;
const L = NOTIFICATION_LIMITS;

@ArgsType()
export class NotificationsArgs {
  @Field(() => Int, { defaultValue: L.limit.default })
  @Min(L.limit.min)
  @Max(L.limit.max)
  limit: number;

  @Field(() => Int, { defaultValue: 0 })
  @Min(0)
  @Max(L.offset.max)
  offset: number;

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

@Resolver()
export class NotificationsResolver {
  @Query(() => NotificationPageType, { description: "The caller's notifications, newest first." })
  async notifications(@Args() a: NotificationsArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(NotificationsService).list(userId, a.limit, a.offset, a.unreadOnly);
  }

  @Mutation(() => MarkReadResultType, {
    description: 'Marks the given notifications read, or all when ids are omitted.',
  })
  async markNotificationsRead(@Args() a: MarkReadArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(NotificationsService).markRead(userId, a.ids);
  }

  @Mutation(() => PushTokenType, { description: 'Registers a device for push notifications (idempotent).' })
  async registerPushToken(@Args() a: PushTokenArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(NotificationsService).registerPushToken(userId, a.token, a.platform);
  }

  @Mutation(() => PushTokenRemovalType)
  async removePushToken(@Args() a: PushTokenRemovalArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(NotificationsService).removePushToken(userId, a.token);
  }

  @Query(() => GraphQLJSONObject, { description: 'Every preference key with its stored or default value.' })
  async preferences(@Ctx() ctx: GraphQLContext): Promise<Preferences> {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(NotificationsService).preferences(userId);
  }

  @Mutation(() => GraphQLJSONObject, {
    description: 'Merges the given preferences; unknown keys, wrong types or oversize values are refused.',
  })
  async updatePreferences(
    @Arg('values', () => GraphQLJSONObject) values: Record<string, unknown>,
    @Ctx() ctx: GraphQLContext,
  ) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(NotificationsService).updatePreferences(userId, values);
  }
}
