import { MaxLength, MinLength, Min, Max, ArrayMinSize, ArrayMaxSize, ValidateNested } from 'class-validator';
import { ArgsType, Field, Int } from 'type-graphql';
import { MarketRefInput } from '../../markets/markets.inputs';
import { HOME_LIMITS, USER_STATS_LIMITS, FRIENDS_TRADED_MAX_MARKETS } from './home.limits';

@ArgsType()
export class HomeArgs {
  @Field(() => String, { nullable: true, description: 'Only activity and trending events of this category.' })
  @MaxLength(HOME_LIMITS.category.max)
  category?: string | null;
}

@ArgsType()
export class UserStatsArgs {
  @Field()
  @MinLength(1)
  @MaxLength(USER_STATS_LIMITS.userId.max)
  userId: string;
}

@ArgsType()
export class OverviewArgs {
  @Field(() => Int, { defaultValue: 10, description: 'Rows per part, 1..50.' })
  @Min(1)
  @Max(50)
  size: number;
}

@ArgsType()
export class FriendsTradedArgs {
  @Field(() => [MarketRefInput])
  @ArrayMinSize(1)
  @ArrayMaxSize(FRIENDS_TRADED_MAX_MARKETS)
  @ValidateNested({ each: true })
  markets: MarketRefInput[];
}
