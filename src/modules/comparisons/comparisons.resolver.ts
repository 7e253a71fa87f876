import { Args, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { MarketSummaryType } from '../market-data/market-data.types';
import { definedOnly } from '../../graphql/defined-only';
import { ComparisonArgs, ComparisonListArgs } from './comparisons.inputs';
import { venueEventKey, type ComparisonView } from './comparisons.models';
import { ComparisonPageType, ComparisonType } from './comparisons.types';
import { comparisonsLoaders } from './comparisons.loaders';
import { ComparisonsService } from './comparisons.service';

@Resolver(() => ComparisonType)
export class ComparisonsResolver {
  @Query(() => ComparisonPageType, { description: 'Cross-venue comparisons, filtered, by id (API key with `read`).' })
  async comparisons(@Args() args: ComparisonListArgs, @Ctx() ctx: GraphQLContext) {
    await ctx.apiKey.require('read');
    return ctx.services.get(ComparisonsService).list(definedOnly(args));
  }

  @Query(() => ComparisonType, { description: 'One comparison (API key with `read`).' })
  async comparison(@Args() { id }: ComparisonArgs, @Ctx() ctx: GraphQLContext) {
    await ctx.apiKey.require('read');
    return ctx.services.get(ComparisonsService).get(id);
  }

  @FieldResolver(() => [MarketSummaryType], { description: "venue_a's markets of this comparison." })
  venueAMarkets(@Root() c: ComparisonView, @Ctx() ctx: GraphQLContext) {
    return ctx.loaders.get(comparisonsLoaders).marketsByVenueEvent.load(venueEventKey('venue_a', c.venueAId));
  }

  @FieldResolver(() => [MarketSummaryType], { description: "venue_b's markets of this comparison." })
  venueBMarkets(@Root() c: ComparisonView, @Ctx() ctx: GraphQLContext) {
    return ctx.loaders.get(comparisonsLoaders).marketsByVenueEvent.load(venueEventKey('venue_b', c.venueBId));
  }
}
