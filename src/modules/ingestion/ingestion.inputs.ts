import { IsOptional, MaxLength, MinLength } from 'class-validator';
import { ArgsType, Field } from 'type-graphql';
import { VenueEnum } from '../../graphql/enums';
import { OffsetPagingArgs } from '../../graphql/paging';
import type { Venue } from '../../venues/venue.models';
import { CATALOG_ADMIN_LIMITS as L } from './ingestion.limits';

const notEmpty = { message: 'must not be empty' };
const idMax = { message: `must be at most ${L.id.max} characters` };
const reasonMax = { message: `must be at most ${L.reason.max} characters` };

@ArgsType()
class DecisionFilterArgs {
  @Field(() => String, { nullable: true, description: 'Decisions naming this venue event (either venue).' })
  @IsOptional()
  @MinLength(1, notEmpty)
  @MaxLength(L.id.max, idMax)
  venueEventId?: string;

  @Field(() => Boolean, { nullable: true, description: 'Only pinned (true) or only unpinned (false) decisions.' })
  pinned?: boolean;
}

@ArgsType()
export class CatalogDecisionListArgs extends OffsetPagingArgs(
  { limit: L.decisions, offset: L.decisionsOffset },
  { rangeMessage: true },
  DecisionFilterArgs,
) {}

@ArgsType()
export class MergeEventsArgs {
  @Field({ description: 'A core event holding one venue event.' })
  @MinLength(1, notEmpty)
  @MaxLength(L.id.max, idMax)
  eventId: string;

  @Field({ description: 'A core event holding one venue event of the other venue.' })
  @MinLength(1, notEmpty)
  @MaxLength(L.id.max, idMax)
  otherEventId: string;

  @Field(() => String, { nullable: true, description: 'Why, kept in the decision.' })
  @IsOptional()
  @MaxLength(L.reason.max, reasonMax)
  reason?: string;
}

@ArgsType()
export class SplitVenueEventArgs {
  @Field(() => VenueEnum)
  venue: Venue;

  @Field({ description: "The venue's event id." })
  @MinLength(1, notEmpty)
  @MaxLength(L.id.max, idMax)
  venueEventId: string;

  @Field(() => String, { nullable: true, description: 'Why, kept in the decision.' })
  @IsOptional()
  @MaxLength(L.reason.max, reasonMax)
  reason?: string;
}

@ArgsType()
export class PinDecisionArgs {
  @Field()
  @MinLength(1, notEmpty)
  @MaxLength(L.id.max, idMax)
  venueAEventId: string;

  @Field()
  @MinLength(1, notEmpty)
  @MaxLength(L.id.max, idMax)
  venueBEventId: string;
}
