import { Field, Float, Int, ObjectType } from 'type-graphql';
import { VenueEnum } from '../../graphql/enums';
import type { HealthView, PipelineView, VenuePipelineView } from './ops.service';

@ObjectType('Health', { description: 'In-process snapshot of the server.' })
export class HealthType implements HealthView {
  @Field(() => String)
  status: HealthView['status'];
  @Field()
  version: string;
  @Field()
  startedAt: Date;
  @Field(() => Int)
  uptimeSeconds: number;
  @Field({ description: '`pglite` (embedded) or `postgres`.' })
  database: string;
  @Field({ description: '`redis` or `memory`.' })
  infra: string;
  @Field(() => Int)
  openStreams: number;
  @Field(() => Float)
  simTradeRate: number;
  @Field(() => Int)
  memoryRssMb: number;
}

@ObjectType('VenuePipeline')
export class VenuePipelineType implements VenuePipelineView {
  @Field(() => VenueEnum)
  venue: VenuePipelineView['venue'];
  @Field(() => Date, { nullable: true, description: 'Fill time of the newest trade stored.' })
  lastTradeAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'When the newest batch was stored.' })
  lastSeenAt: Date | null;
  @Field(() => Int, { nullable: true, description: 'Seconds since the newest trade.' })
  lagSeconds: number | null;
  @Field(() => Float)
  tradesSeen: number;
  @Field(() => String, { description: '`ok`, `stale` (live trades expected but late) or `idle` (none expected).' })
  status: VenuePipelineView['status'];
}

@ObjectType('Pipeline', { description: 'Database-backed freshness of ingestion.' })
export class PipelineType implements PipelineView {
  @Field(() => String)
  status: PipelineView['status'];
  @Field()
  checkedAt: Date;
  @Field(() => Int)
  events: number;
  @Field(() => Int)
  markets: number;
  @Field(() => [VenuePipelineType])
  venues: VenuePipelineView[];
}
