import { Matches, Max, MaxLength, Min } from 'class-validator';
import { ArgsType, Field, Float, Int } from 'type-graphql';
import { SEARCH_LIMITS as L } from './search.limits';

@ArgsType()
export class SearchEventsArgs {
  @Field({ description: `What to look for, in natural language (1..${L.q.max} characters).` })
  @Matches(/\S/, { message: 'must not be blank' })
  @MaxLength(L.q.max, { message: `must be at most ${L.q.max} characters` })
  q: string;

  @Field(() => Int, { defaultValue: L.limit.default, description: `${L.limit.min}..${L.limit.max}` })
  @Min(L.limit.min, { message: `must be an integer from ${L.limit.min} to ${L.limit.max}` })
  @Max(L.limit.max, { message: `must be an integer from ${L.limit.min} to ${L.limit.max}` })
  limit: number;

  @Field(() => Float, { defaultValue: L.threshold.default, description: 'Least similarity to return, 0..1.' })
  @Min(L.threshold.min, { message: `must be a number from ${L.threshold.min} to ${L.threshold.max}` })
  @Max(L.threshold.max, { message: `must be a number from ${L.threshold.min} to ${L.threshold.max}` })
  threshold: number;
}
