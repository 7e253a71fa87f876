import { Min, Max, MaxLength, IsIn, IsOptional, IsInt } from 'class-validator';
import { ArgsType, Field, Int } from 'type-graphql';
import { VenueEnum } from '../../../graphql/enums';
import { OffsetPagingArgs } from '../../../graphql/paging';
import { HISTORY_LIMITS, HISTORY_INTERVALS } from '../../charts/charts.limits';
import { LeaderboardSortEnum } from './leaderboard.types';
import { LEADERBOARD_LIMITS, LEADERBOARD_ME_LIMITS, FOLLOW_TRADES_LIMITS } from './traders.limits';

const N = LEADERBOARD_ME_LIMITS.neighbours;
const { time } = HISTORY_LIMITS;
const { topN } = FOLLOW_TRADES_LIMITS;
const timeMessage = `must be an integer from ${time.min} to ${time.max} (unix seconds)`;
const topNMessage = `must be an integer from ${topN.min} to ${topN.max}`;

@ArgsType()
export class PagingArgs extends OffsetPagingArgs(LEADERBOARD_LIMITS, { describe: ['limit'] }) {}

@ArgsType()
export class LeaderboardArgs extends PagingArgs {
  @Field(() => LeaderboardSortEnum, { defaultValue: LeaderboardSortEnum.total_volume })
  sortBy: LeaderboardSortEnum;

  @Field(() => VenueEnum, { nullable: true })
  venue?: VenueEnum;
}

@ArgsType()
export class LeaderboardMeArgs {
  @Field(() => LeaderboardSortEnum, { defaultValue: LeaderboardSortEnum.total_volume })
  sortBy: LeaderboardSortEnum;

  @Field(() => Int, { defaultValue: N.default, description: `Rows above and below the caller, ${N.min}..${N.max}.` })
  @Min(N.min)
  @Max(N.max)
  neighbours: number;
}

@ArgsType()
export class TraderArgs {
  @Field(() => VenueEnum)
  venue: VenueEnum;

  @Field()
  @MaxLength(100)
  traderId: string;
}

@ArgsType()
export class TraderTradesArgs extends PagingArgs {
  @Field(() => VenueEnum)
  venue: VenueEnum;

  @Field()
  @MaxLength(100)
  traderId: string;
}

/** The history arguments (same defaults and bounds) plus `topN`. */
@ArgsType()
export class FollowTradesArgs {
  @Field({ description: 'Event id or slug.' })
  @MaxLength(200)
  eventId: string;

  @Field(() => String, { defaultValue: HISTORY_LIMITS.defaultInterval, description: HISTORY_INTERVALS.join(', ') })
  @IsIn(HISTORY_INTERVALS, { message: `must be one of ${HISTORY_INTERVALS.join(', ')}` })
  interval: string;

  @Field(() => Int, {
    nullable: true,
    description: 'Unix seconds; default: now minus the lookback window of the interval.',
  })
  @IsOptional()
  @IsInt({ message: timeMessage })
  @Min(time.min, { message: timeMessage })
  @Max(time.max, { message: timeMessage })
  from?: number;

  @Field(() => Int, { nullable: true, description: 'Unix seconds; default: now.' })
  @IsOptional()
  @IsInt({ message: timeMessage })
  @Min(time.min, { message: timeMessage })
  @Max(time.max, { message: timeMessage })
  to?: number;

  @Field(() => Int, { defaultValue: topN.default, description: `Traders kept per bubble, ${topN.min}..${topN.max}.` })
  @Min(topN.min, { message: topNMessage })
  @Max(topN.max, { message: topNMessage })
  topN: number;
}
