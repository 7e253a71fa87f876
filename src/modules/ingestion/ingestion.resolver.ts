import { Ctx, Mutation, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { CatalogService, type SyncReport } from './catalog.service';
import { CatalogSyncReportType } from './ingestion.types';
import { MarketIndex } from './market-index';

@Resolver()
export class IngestionResolver {
  @Mutation(() => CatalogSyncReportType, {
    description: "Loads the venues' catalogs (the demo world) into the database; idempotent. Needs X-Admin-Token.",
  })
  async syncCatalog(@Ctx() ctx: GraphQLContext): Promise<SyncReport> {
    ctx.auth.requireHeaderToken('admin');
    const report = await ctx.services.get(CatalogService).sync(ctx.services.world);
    await ctx.services.get(MarketIndex).refresh();
    return report;
  }
}
