import { ArgsType } from 'type-graphql';
import { OffsetPagingArgs } from '../../../graphql/paging';
import { TraderRefArgs } from '../traders/traders.inputs';
import { FOLLOW_LIMITS } from './follows.limits';

/** The trader to follow or unfollow. */
@ArgsType()
export class FollowArgs extends TraderRefArgs() {}

@ArgsType()
export class FollowsListArgs extends OffsetPagingArgs(FOLLOW_LIMITS, { describe: [] }) {}
