import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { definedOnly } from '../../graphql/defined-only';
import { CatalogJob } from './catalog-job';
import { CatalogOverridesService } from './catalog-overrides.service';
import type { SyncReport } from './catalog.service';
import { CatalogDecisionListArgs, MergeEventsArgs, PinDecisionArgs, SplitVenueEventArgs } from './ingestion.inputs';
import { CatalogDecisionPageType, CatalogDecisionType, CatalogSyncReportType } from './ingestion.types';

@Resolver()
export class IngestionResolver {
  @Mutation(() => CatalogSyncReportType, {
    description:
      "Syncs the venues' catalogs into the database now (the demo world, or the catalog job's matching when a " +
      'venue is live); idempotent. Needs X-Admin-Token.',
  })
  async syncCatalog(@Ctx() ctx: GraphQLContext): Promise<SyncReport> {
    ctx.auth.requireHeaderToken('admin');
    return ctx.services.get(CatalogJob).run();
  }

  @Query(() => CatalogDecisionPageType, {
    description: "The catalog job's merge / separate decisions with their similarity and reason (X-Admin-Token).",
  })
  catalogDecisions(@Args() args: CatalogDecisionListArgs, @Ctx() ctx: GraphQLContext) {
    ctx.auth.requireHeaderToken('admin');
    return ctx.services.get(CatalogOverridesService).list(definedOnly(args));
  }

  @Mutation(() => CatalogDecisionType, {
    description:
      'Merges two core events holding one venue event each, one per venue, into one; pinned, so later syncs keep ' +
      'it (X-Admin-Token).',
  })
  mergeCoreEvents(@Args() { eventId, otherEventId, reason }: MergeEventsArgs, @Ctx() ctx: GraphQLContext) {
    ctx.auth.requireHeaderToken('admin');
    return ctx.services.get(CatalogOverridesService).merge(eventId, otherEventId, reason);
  }

  @Mutation(() => CatalogDecisionType, {
    description:
      'Splits a venue event out of its merged core event into a core event of its own; pinned (X-Admin-Token).',
  })
  splitVenueEvent(@Args() { venue, venueEventId, reason }: SplitVenueEventArgs, @Ctx() ctx: GraphQLContext) {
    ctx.auth.requireHeaderToken('admin');
    return ctx.services.get(CatalogOverridesService).split(venue, venueEventId, reason);
  }

  @Mutation(() => CatalogDecisionType, {
    description: 'Pins a decision as it stands: the matcher no longer revisits the pair (X-Admin-Token).',
  })
  pinCatalogDecision(@Args() { venueAEventId, venueBEventId }: PinDecisionArgs, @Ctx() ctx: GraphQLContext) {
    ctx.auth.requireHeaderToken('admin');
    return ctx.services.get(CatalogOverridesService).pin(venueAEventId, venueBEventId);
  }
}
