import { Max, Min } from 'class-validator';
import { ArgsType, Field, Int } from 'type-graphql';
import { USAGE_LIMITS } from './usage.limits';

const { days } = USAGE_LIMITS;

@ArgsType()
export class UsageArgs {
  @Field(() => Int, { defaultValue: days.default, description: `${days.min}..${days.max}` })
  @Min(days.min)
  @Max(days.max)
  days: number;
}
