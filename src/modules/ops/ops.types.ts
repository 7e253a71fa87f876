import { Field, Float, Int, ObjectType } from 'type-graphql';
import { VenueEnum } from '../../graphql/enums';
import type { VenueStreamView } from '../market-streams/market-streams.models';
import type { HealthView, PipelineView, VenuePipelineView } from './ops.service';

@ObjectType('VenueStreamHealth', { description: "Where a venue's live data comes from now, as this process knows it." })
export class VenueStreamHealthType implements VenueStreamView {
  @Field(() => VenueEnum)
  venue: VenueStreamView['venue'];
  @Field(() => String, { description: "`live` (the venue's websocket) or `sim` (the simulated world's stream)." })
  source: VenueStreamView['source'];
  @Field(() => String, {
    description:
      '`up`, `connecting`, `down` (polling stands in), `off` (no stream: `VENUE_STREAMS=off`) or `unknown` ' +
      '(no process has said lately).',
  })
  state: VenueStreamView['state'];
  @Field(() => String, { nullable: true, description: 'When the state began (ISO 8601).' })
  since: string | null;
  @Field(() => String, { nullable: true, description: 'What went wrong last, while not up.' })
  reason: string | null;
  @Field(() => String, { description: 'Where live trades come from: `stream`, `polling` or `stream and polling`.' })
  trades: VenueStreamView['trades'];
  @Field(() => String, { description: 'Where books come from: `stream` (followed markets) or `on request`.' })
  books: VenueStreamView['books'];
  @Field(() => Int, { description: 'Markets the stream follows.' })
  markets: number;
}

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
  @Field(() => [VenueStreamHealthType], { description: "Each venue's stream: up, or down with polling standing in." })
  venueStreams: VenueStreamView[];
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
