import { Ctx, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { HealthType, PipelineType } from './ops.types';
import { OpsService } from './ops.service';

@Resolver()
export class OpsResolver {
  @Query(() => HealthType, { description: 'In-process health snapshot (no database).' })
  health(@Ctx() ctx: GraphQLContext) {
    return ctx.services.get(OpsService).health();
  }

  @Query(() => PipelineType, { description: 'Ingestion freshness per venue (database-backed).' })
  pipeline(@Ctx() ctx: GraphQLContext) {
    return ctx.services.get(OpsService).pipeline();
  }
}
