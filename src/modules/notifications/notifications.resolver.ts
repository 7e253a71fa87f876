import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { MarkReadArgs, NotificationsArgs, PushTokenArgs, PushTokenRemovalArgs } from './notifications.inputs';
import { MarkReadResultType, NotificationPageType, PushTokenRemovalType, PushTokenType } from './notifications.types';
import type { Preferences } from './preferences.models';
import { NotificationsService } from './notifications.service';

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

  @Mutation(() => PushTokenType, {
    description:
      'Registers a device for push notifications (idempotent). A user keeps a bounded number of devices: ' +
      'registering one more unregisters the least recently registered. Rate limited per user.',
  })
  async registerPushToken(@Args() a: PushTokenArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    await ctx.services.rateLimits.consume('pushTokens', userId);
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
