import { IsOptional, Max, MaxLength, Min } from 'class-validator';
import { ArgsType, Field, Int } from 'type-graphql';
import { CursorArgs } from '../market-data/market-data.inputs';
import { type Confidence, COMPARISON_LIMITS as L, type RelationshipType } from './comparisons.limits';
import { ConfidenceEnum, RelationshipTypeEnum } from './comparisons.types';

@ArgsType()
export class ComparisonListArgs extends CursorArgs {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(L.bucket.max)
  bucket?: string;

  @Field(() => ConfidenceEnum, { nullable: true })
  confidence?: Confidence;

  @Field(() => RelationshipTypeEnum, { nullable: true })
  relationshipType?: RelationshipType;
}

@ArgsType()
export class ComparisonArgs {
  @Field(() => Int)
  @Min(L.id.min)
  @Max(L.id.max)
  id: number;
}
