import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';
import type { DailyUsageView, UsageReportView } from './usage.models';

@ObjectType('DailyUsage')
export class DailyUsageType implements DailyUsageView {
  @Field({ description: 'UTC day, `YYYY-MM-DD`.' })
  date: string;
  @Field(() => Int)
  requests: number;
}

@ObjectType('UsageStats', { description: "Requests of the calling key's owner over the last `periodDays` UTC days." })
export class UsageStatsType implements UsageReportView {
  @Field(() => Int)
  periodDays: number;
  @Field(() => Int)
  totalRequests: number;
  @Field(() => GraphQLJSONObject, { description: 'Endpoint path template → requests.' })
  byEndpoint: Record<string, number>;
  @Field(() => [DailyUsageType], { description: 'Every day of the period, oldest first, zeros included.' })
  dailyUsage: DailyUsageView[];
}
