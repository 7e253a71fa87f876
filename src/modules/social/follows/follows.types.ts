import { Field, ObjectType } from 'type-graphql';
import { VenueEnum } from '../../../graphql/enums';
import { OffsetPageType } from '../../../graphql/paging';
import type { FollowPage, FollowView, UnfollowResult } from './follows.service';

@ObjectType('Follow', { description: 'A trader the caller follows.' })
export class FollowType implements FollowView {
  @Field(() => VenueEnum)
  venue: FollowView['venue'];
  @Field({ description: 'A wallet on venue_a (lower case); a handle on venue_b.' })
  traderId: string;
  @Field()
  createdAt: Date;
}

@ObjectType('FollowPage')
export class FollowPageType extends OffsetPageType<FollowView>(FollowType) implements FollowPage {}

@ObjectType('UnfollowResult')
export class UnfollowResultType implements UnfollowResult {
  @Field(() => VenueEnum)
  venue: UnfollowResult['venue'];
  @Field()
  traderId: string;
  @Field({ description: 'False when the trader was not followed.' })
  removed: boolean;
}
