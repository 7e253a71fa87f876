import { Min, Max, MaxLength } from 'class-validator';
import { ArgsType, Field, Int, type ClassType } from 'type-graphql';
import { VenueEnum } from '../../../graphql/enums';
import { NoArgs, OffsetPagingArgs } from '../../../graphql/paging';
import { HistoryWindowArgs } from '../../charts/charts.inputs';
import { LeaderboardSortEnum } from './leaderboard.types';
import {
  LEADERBOARD_LIMITS,
  LEADERBOARD_ME_LIMITS,
  FOLLOW_TRADES_LIMITS,
  type LeaderboardSort,
} from './traders.limits';
import { type Venue } from '../../../venues/venue.models';

const N = LEADERBOARD_ME_LIMITS.neighbours;
const { topN } = FOLLOW_TRADES_LIMITS;
const topNMessage = `must be an integer from ${topN.min} to ${topN.max}`;

@ArgsType()
export class PagingArgs extends OffsetPagingArgs(LEADERBOARD_LIMITS, { describe: ['limit'] }) {}

@ArgsType()
export class LeaderboardArgs extends PagingArgs {
  @Field(() => LeaderboardSortEnum, { defaultValue: LeaderboardSortEnum.total_volume })
  sortBy: LeaderboardSort;

  @Field(() => VenueEnum, { nullable: true })
  venue?: Venue;
}

@ArgsType()
export class LeaderboardMeArgs {
  @Field(() => LeaderboardSortEnum, { defaultValue: LeaderboardSortEnum.total_volume })
  sortBy: LeaderboardSort;

  @Field(() => Int, { defaultValue: N.default, description: `Rows above and below the caller, ${N.min}..${N.max}.` })
  @Min(N.min)
  @Max(N.max)
  neighbours: number;
}

/** `venue` and `traderId`: which trader (followed, shown, listed), on top of `Base` when given. */
export function TraderRefArgs<TBase extends ClassType = typeof NoArgs>(Base: TBase = NoArgs as TBase) {
  @ArgsType()
  class TraderRef extends Base {
    @Field(() => VenueEnum)
    venue: Venue;

    @Field()
    @MaxLength(100)
    traderId: string;
  }
  return TraderRef;
}

@ArgsType()
export class TraderArgs extends TraderRefArgs() {}

@ArgsType()
export class TraderTradesArgs extends TraderRefArgs(PagingArgs) {}

@ArgsType()
class FollowTradesEventArgs {
  @Field({ description: 'Event id or slug.' })
  @MaxLength(200)
  eventId: string;
}

/** The history window of one event (the charts' arguments, same defaults and bounds) plus `topN`. */
@ArgsType()
export class FollowTradesArgs extends HistoryWindowArgs(FollowTradesEventArgs) {
  @Field(() => Int, { defaultValue: topN.default, description: `Traders kept per bubble, ${topN.min}..${topN.max}.` })
  @Min(topN.min, { message: topNMessage })
  @Max(topN.max, { message: topNMessage })
  topN: number;
}
