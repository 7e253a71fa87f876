import { Field, Float, Int, ObjectType } from 'type-graphql';
import type {
  CountWindowsView,
  FunnelStepView,
  FunnelView,
  ProductMetricsView,
  VolumeWindowsView,
} from './product-metrics.service';

@ObjectType('CountWindows')
export class CountWindowsType implements CountWindowsView {
  @Field(() => Int)
  total: number;
  @Field(() => Int)
  last7d: number;
  @Field(() => Int)
  last30d: number;
}

@ObjectType('ActiveUsers', {
  description: 'Distinct users who placed an order, commented or followed a trader in the window.',
})
export class ActiveUsersType {
  @Field(() => Int)
  last7d: number;
  @Field(() => Int)
  last30d: number;
}

@ObjectType('VolumeWindows', { description: 'USD notional of filled orders.' })
export class VolumeWindowsType implements VolumeWindowsView {
  @Field(() => Float)
  total: number;
  @Field(() => Float)
  last7d: number;
  @Field(() => Float)
  last30d: number;
  @Field(() => Float, { description: 'Of the total, live orders (the rest ran in simulation).' })
  live: number;
}

@ObjectType('FunnelStep')
export class FunnelStepType implements FunnelStepView {
  @Field({ description: '`signed_up`, `wallet_linked_or_funded`, `first_trade`.' })
  step: string;
  @Field(() => Int)
  users: number;
  @Field(() => Float, { nullable: true, description: 'Share of the previous step, 0..1.' })
  fromPrevious: number | null;
  @Field(() => Float, { nullable: true, description: 'Share of signed-up users, 0..1.' })
  fromSignUp: number | null;
}

@ObjectType('Funnel', {
  description: 'Sign-up → wallet linked or funded → first trade; each step counts users of the previous one.',
})
export class FunnelType implements FunnelView {
  @Field(() => [FunnelStepType])
  steps: FunnelStepView[];
  @Field(() => Int, { description: 'Signed-up users with an imported wallet.' })
  walletLinked: number;
  @Field(() => Int, { description: 'Signed-up users with a credited deposit.' })
  funded: number;
  @Field(() => Int, {
    description: 'Signed-up users with a filled order (simulation included), whatever the earlier steps.',
  })
  traded: number;
}

@ObjectType('ProductMetrics', { description: 'Users, activity, trading and the sign-up funnel (operators).' })
export class ProductMetricsType implements ProductMetricsView {
  @Field()
  generatedAt: Date;
  @Field(() => CountWindowsType, { description: 'Signed-up users; windows count sign-ups.' })
  users: CountWindowsView;
  @Field(() => ActiveUsersType)
  activeUsers: { last7d: number; last30d: number };
  @Field(() => CountWindowsType, { description: 'Orders with at least one fill; windows by placement time.' })
  trades: CountWindowsView;
  @Field(() => VolumeWindowsType)
  volume: VolumeWindowsView;
  @Field(() => FunnelType)
  funnel: FunnelView;
}
