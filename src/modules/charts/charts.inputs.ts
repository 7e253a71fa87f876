import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { ArgsType, Field, Int, type ClassType } from 'type-graphql';
import { VenueEnum } from '../../graphql/enums';
import { NoArgs } from '../../graphql/paging';
import { HISTORY_INTERVALS, HISTORY_LIMITS } from './charts.limits';
import { type Venue } from '../../venues/venue.models';

const { time, chartPoints } = HISTORY_LIMITS;
const timeMessage = `must be an integer from ${time.min} to ${time.max} (unix seconds)`;
const intervalMessage = `must be one of ${HISTORY_INTERVALS.join(', ')}`;

/**
 * `interval`, `from` and `to` of a price-history window, on top of `Base` (the list's other
 * arguments) when given: every history drawn (event charts, follow-trade bubbles) takes the same
 * defaults and bounds.
 */
export function HistoryWindowArgs<TBase extends ClassType = typeof NoArgs>(Base: TBase = NoArgs as TBase) {
  @ArgsType()
  class HistoryWindow extends Base {
    @Field(() => String, { defaultValue: HISTORY_LIMITS.defaultInterval, description: HISTORY_INTERVALS.join(', ') })
    @IsIn(HISTORY_INTERVALS, { message: intervalMessage })
    interval: string;

    @Field(() => Int, {
      nullable: true,
      description: 'Unix seconds; default: now minus the lookback window of the interval.',
    })
    @IsOptional()
    @IsInt({ message: timeMessage })
    @Min(time.min, { message: timeMessage })
    @Max(time.max, { message: timeMessage })
    from?: number;

    @Field(() => Int, { nullable: true, description: 'Unix seconds; default: now.' })
    @IsOptional()
    @IsInt({ message: timeMessage })
    @Min(time.min, { message: timeMessage })
    @Max(time.max, { message: timeMessage })
    to?: number;
  }
  return HistoryWindow;
}

@ArgsType()
export class HistoryArgs extends HistoryWindowArgs() {
  @Field(() => VenueEnum, { nullable: true, description: "Only this venue's markets." })
  venue?: Venue;
}

@ArgsType()
export class ChartArgs {
  @Field(() => Int, { defaultValue: chartPoints.default, description: `${chartPoints.min}..${chartPoints.max}` })
  @Min(chartPoints.min, { message: `must be an integer from ${chartPoints.min} to ${chartPoints.max}` })
  @Max(chartPoints.max, { message: `must be an integer from ${chartPoints.min} to ${chartPoints.max}` })
  points: number;

  @Field(() => String, { defaultValue: HISTORY_LIMITS.defaultInterval, description: HISTORY_INTERVALS.join(', ') })
  @IsIn(HISTORY_INTERVALS, { message: intervalMessage })
  interval: string;
}
