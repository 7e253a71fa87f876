import { Args, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { AppError } from '../../errors/app-error';
import { mapFilter } from '../../graphql/async-iterators';
import { AccountUpdatesArgs } from './account-streams.inputs';
import { accountTopic, reviveAccountEvent, type AccountEvent, type AccountUpdateView } from './account-streams.models';
import { AccountUpdateType } from './account-streams.types';

type AccountSubscribeData = SubscribeResolverData<unknown, AccountUpdatesArgs, GraphQLContext>;

/**
 * The caller's own topic, subscribed before the stream answers: a client told the stream is open
 * hears every change committed after that. The topic is the caller's (from the user token), so no
 * one else's changes can reach it.
 */
async function subscribeAccount({ args, context }: AccountSubscribeData) {
  const { userId } = await context.auth.requireUser();
  const source = context.services.infra.pubsub.iterate<AccountEvent>(accountTopic(userId));
  try {
    await source.ready;
  } catch {
    await source.return();
    throw AppError.unavailable('account updates are unavailable: the pub/sub cannot be reached');
  }
  return mapFilter(
    source,
    (e) => e.userId === userId && (args.mode === undefined || e.mode === args.mode),
    (e) => e,
  );
}

@Resolver()
export class AccountStreamsResolver {
  @Subscription(() => AccountUpdateType, {
    description:
      "The caller's own order, fill, position and balance changes, live and paper (each with its `mode`), as " +
      'their transactions commit, in commit order (user bearer token). Live only: nothing is replayed.',
    subscribe: subscribeAccount,
  })
  accountUpdates(@Root() event: AccountEvent, @Args() _args: AccountUpdatesArgs): AccountUpdateView {
    return reviveAccountEvent(event);
  }
}
