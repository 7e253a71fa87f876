import { Ctx, Mutation, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import type { SyncReport } from './catalog.service';
import { CatalogSyncReportType } from './ingestion.types';

@Resolver()
export class IngestionResolver {
  @Mutation(() => CatalogSyncReportType, {
    description: "Loads the venues' catalogs (the demo world) into the database; idempotent. Needs X-Admin-Token.",
  })
  async syncCatalog(@Ctx() ctx: GraphQLContext): Promise<SyncReport> {
    ctx.auth.requireHeaderToken('admin');
    const report = await ctx.services.catalog.sync(ctx.services.world);
    await ctx.services.refreshMarketIndex();
    return report;
  }
}
