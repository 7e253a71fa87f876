import { Field, Float, Int, ObjectType } from 'type-graphql';
import type { OrderTradingView, UserStatsView, WalletTradingView } from './user-stats.service';

@ObjectType('WalletTrading', {
  description: "The user's verified polygon wallets as venue_a traders: their trader stats summed (USD).",
})
export class WalletTradingType implements WalletTradingView {
  @Field(() => Float)
  totalVolume: number;
  @Field(() => Int)
  totalTrades: number;
  @Field(() => Int)
  winCount: number;
  @Field(() => Int)
  lossCount: number;
  @Field(() => Float)
  realizedPnl: number;
  @Field(() => Float, { description: 'Marked to market at the last leaderboard refresh.' })
  unrealizedPnl: number;
  @Field(() => Float)
  totalPnl: number;
  @Field(() => Date, { nullable: true })
  firstTradeAt: Date | null;
  @Field(() => Date, { nullable: true })
  lastTradeAt: Date | null;
}

@ObjectType('OrderTrading', {
  description:
    'Live orders the user placed through the service that filled, wholly or partly (paper orders never count).',
})
export class OrderTradingType implements OrderTradingView {
  @Field(() => Int)
  filledOrders: number;
  @Field(() => Float, { description: 'USD notional of their fills.' })
  volume: number;
}

@ObjectType('UserStats', {
  description:
    "A user's public stats: their verified wallets' trading, their live orders here, social counts. Paper " +
    '(simulation) orders and unverified wallets never count.',
})
export class UserStatsType implements UserStatsView {
  @Field()
  userId: string;
  @Field(() => Date, { nullable: true, description: 'Sign-up time; null for a user who never signed up.' })
  joinedAt: Date | null;
  @Field(() => Int, { description: 'Verified polygon wallets (venue_a trader identities).' })
  wallets: number;
  @Field(() => Int, { description: 'Of those, the ones with public trades.' })
  rankedWallets: number;
  @Field(() => Int, { description: "Follows of the user's wallets as traders." })
  followers: number;
  @Field(() => Int, { description: 'Traders the user follows.' })
  following: number;
  @Field(() => Int)
  comments: number;
  @Field(() => WalletTradingType)
  onChain: WalletTradingView;
  @Field(() => OrderTradingType)
  orders: OrderTradingView;
  @Field(() => Float, {
    description:
      'onChain volume plus live order volume, venue_a orders excepted (they reach onChain once indexed); ' +
      'paper orders never count.',
  })
  totalVolume: number;
  @Field(() => Int, { description: 'onChain trades plus filled orders, counted the same way.' })
  totalTrades: number;
}
