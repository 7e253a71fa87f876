import { Field, Int, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums';
import { CountedCursorPageType } from '../../graphql/paging';
import type { CursorPage } from '../market-data/cursor-page';
import { PAGE_FIELDS } from '../market-data/market-data.types';
import { CONFIDENCES, RELATIONSHIP_TYPES } from './comparisons.limits';
import type { ComparisonView } from './comparisons.models';

export const RelationshipTypeEnum = graphqlEnum(RELATIONSHIP_TYPES, {
  name: 'RelationshipType',
  description:
    '`exact_match`: same resolution condition, price gaps are genuine; `similar`: same topic, criteria or ' +
    'timeframe differ.',
});

export const ConfidenceEnum = graphqlEnum(CONFIDENCES, {
  name: 'MatchConfidence',
  description: '`high`: criteria verified; `medium`: likely, subtle differences possible; `low`: needs manual review.',
});

@ObjectType('Comparison', { description: 'A mapping between a venue_a event and a venue_b event.' })
export class ComparisonType implements ComparisonView {
  @Field(() => Int)
  id: number;
  @Field({ description: 'Event id on venue_a.' })
  venueAId: string;
  @Field({ description: 'Event id on venue_b.' })
  venueBId: string;
  @Field(() => String, { nullable: true })
  venueATitle: string | null;
  @Field(() => String, { nullable: true })
  venueBTitle: string | null;
  @Field(() => RelationshipTypeEnum)
  relationshipType: ComparisonView['relationshipType'];
  @Field(() => ConfidenceEnum)
  confidence: ComparisonView['confidence'];
  @Field(() => String, { nullable: true, description: 'Why the matcher decided so.' })
  reasoning: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'Broad topic: politics, crypto, sports, economics, tech, science, culture.',
  })
  bucket: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'Finer category inside the bucket (e.g. nba, inflation, elections).',
  })
  subtag: string | null;
}

@ObjectType('ComparisonPage', { description: 'A cursor page of comparisons, by id.' })
export class ComparisonPageType
  extends CountedCursorPageType<ComparisonView>(ComparisonType, { descriptions: PAGE_FIELDS })
  implements CursorPage<ComparisonView> {}
