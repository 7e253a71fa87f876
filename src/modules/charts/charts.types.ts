import { GraphQLScalarType } from 'graphql';
import { Field, Int, ObjectType } from 'type-graphql';
import { VenueEnum } from '../../graphql/enums';
import type { Venue } from '../../venues/venue.models';
import type { CandleRow, SeriesKind } from './candles';
import type { HistoryInterval } from './charts.limits';
import type {
  EventHistoryView,
  HistoryWindow,
  MarketChartView,
  MarketHistoryView,
  VenueHistoryStatusView,
} from './charts.models';

/**
 * A chart row as one leaf value. The row's fields are fixed by the interface
 * (`t, o, h, l, c, v`), and charts carry thousands of rows: resolving six
 * fields per row dominated the response time, a scalar serializes each row once.
 */
export const CandleScalar = new GraphQLScalarType<CandleRow, CandleRow>({
  name: 'Candle',
  description:
    'A chart row `{t, o, h, l, c, v}`: `t` the bucket start (unix seconds), prices on the 0..1 scale, `v` ' +
    'traded contracts. venue_a rows are points: o = h = l = c and v is null.',
  serialize: (value) => {
    const r = value as CandleRow;
    return { t: r.t, o: r.o, h: r.h, l: r.l, c: r.c, v: r.v };
  },
  parseValue: () => {
    throw new TypeError('Candle is an output type');
  },
  extensions: {
    // The OpenAPI document describes REST responses from this.
    jsonSchema: {
      type: 'object',
      properties: {
        t: { type: 'integer', description: 'Bucket start, unix seconds.' },
        o: { type: 'number' },
        h: { type: 'number' },
        l: { type: 'number' },
        c: { type: 'number' },
        v: { type: ['number', 'null'], description: 'Traded contracts; null on venue_a (points).' },
      },
      required: ['t', 'o', 'h', 'l', 'c', 'v'],
    },
  },
});

@ObjectType('MarketHistory', { description: "One venue market's candles." })
export class MarketHistoryType implements MarketHistoryView {
  @Field(() => VenueEnum)
  venue: Venue;
  @Field()
  marketId: string;
  @Field()
  title: string;
  @Field(() => String, { description: '`points` (venue_a) or `ohlcv` (venue_b).' })
  kind: SeriesKind;
  @Field(() => [CandleScalar], { description: 'Oldest first.' })
  candles: CandleRow[];
}

@ObjectType('VenueHistoryStatus', { description: 'Whether a venue answered the history request.' })
export class VenueHistoryStatusType implements VenueHistoryStatusView {
  @Field(() => VenueEnum)
  venue: Venue;
  @Field(() => String, { description: '`ok` or `failed` (its markets are then left out).' })
  status: 'ok' | 'failed';
  @Field(() => Int, { description: 'Markets of the event on this venue.' })
  markets: number;
  @Field(() => String, { nullable: true })
  error: string | null;
}

/**
 * The fields of a history window that every view drawn on a history declares alike
 * (`EventHistory`, `MarketChart`, `FollowTrades`); each adds its range with its own wording.
 * Never named in the schema.
 */
@ObjectType()
export abstract class HistoryWindowFieldsType implements Pick<HistoryWindow, 'interval' | 'bucketSeconds'> {
  @Field(() => String)
  interval: HistoryInterval;
  @Field(() => Int)
  bucketSeconds: number;
}

@ObjectType('EventHistory', { description: "An event's price history: one normalized candle series per venue market." })
export class EventHistoryType extends HistoryWindowFieldsType implements EventHistoryView {
  @Field()
  eventId: string;
  @Field(() => Int, { description: 'Effective range start, unix seconds (rows start at its bucket).' })
  from: number;
  @Field(() => Int, { description: 'Effective range end, unix seconds.' })
  to: number;
  @Field(() => [MarketHistoryType])
  markets: MarketHistoryView[];
  @Field(() => [VenueHistoryStatusType])
  venues: VenueHistoryStatusView[];
  @Field(() => [VenueEnum], { description: 'Venues that failed; the response then holds the other venue only.' })
  failedVenues: Venue[];
}

@ObjectType('MarketChart', { description: "A market's newest buckets, for the detail screen." })
export class MarketChartType extends HistoryWindowFieldsType implements MarketChartView {
  @Field(() => Int)
  from: number;
  @Field(() => Int)
  to: number;
  @Field(() => String)
  kind: SeriesKind;
  @Field(() => [CandleScalar], { description: 'Oldest first.' })
  candles: CandleRow[];
}
