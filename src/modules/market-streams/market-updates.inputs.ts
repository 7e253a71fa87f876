import { ArgsType, Field, ID, Int } from 'type-graphql';
import { VenueEnum } from '../../graphql/enums';
import type { Venue } from '../../venues/venue.models';
import { MarketRefInput } from '../markets/markets.inputs';
import { MARKET_STREAM_LIMITS as L } from './market-streams.limits';

const RESUME =
  'The `id` of the last update received (a reconnection): that market goes on without a snapshot when ' +
  'nothing was missed since, else starts with a fresh one. REST: `Last-Event-ID`.';

/**
 * One market (`venue` and `marketId`) or several (`markets`, as `orderBooks` takes them): exactly one
 * of the two forms, checked by the subscription (a `bad_request` naming the field otherwise).
 */
@ArgsType()
export class MarketUpdatesArgs {
  @Field(() => VenueEnum, { nullable: true, description: 'One market: its venue (with `marketId`).' })
  venue?: Venue;

  @Field({
    nullable: true,
    description: `One market: the venue's market id (with \`venue\`; at most ${L.marketId.max} characters).`,
  })
  marketId?: string;

  @Field(() => [MarketRefInput], {
    nullable: true,
    description:
      `Several markets on one stream, ${L.markets.min}..${L.markets.max} (instead of \`venue\` and ` +
      '`marketId`); tell their updates apart by `venue` and `marketId`.',
  })
  markets?: MarketRefInput[];

  @Field(() => Int, {
    defaultValue: L.depth.default,
    description: `Levels per side, ${L.depth.min}..${L.depth.max}.`,
  })
  depth: number;

  @Field(() => ID, { nullable: true, description: RESUME })
  after?: string;
}
