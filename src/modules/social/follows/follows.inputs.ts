import { MaxLength, Min, Max } from 'class-validator';
import { ArgsType, Field, Int } from 'type-graphql';
import { VenueEnum } from '../../../graphql/enums';
import { FOLLOW_LIMITS } from './follows.limits';

@ArgsType()
export class FollowArgs {
  @Field(() => VenueEnum)
  venue: VenueEnum;

  @Field()
  @MaxLength(100)
  traderId: string;
}

@ArgsType()
export class FollowsListArgs {
  @Field(() => Int, { defaultValue: FOLLOW_LIMITS.limit.default })
  @Min(FOLLOW_LIMITS.limit.min)
  @Max(FOLLOW_LIMITS.limit.max)
  limit: number;

  @Field(() => Int, { defaultValue: 0 })
  @Min(FOLLOW_LIMITS.offset.min)
  @Max(FOLLOW_LIMITS.offset.max)
  offset: number;
}
