import { MaxLength } from 'class-validator';
import { ArgsType, Field } from 'type-graphql';
import { VenueEnum } from '../../../graphql/enums';
import { OffsetPagingArgs } from '../../../graphql/paging';
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
export class FollowsListArgs extends OffsetPagingArgs(FOLLOW_LIMITS, { describe: [] }) {}
