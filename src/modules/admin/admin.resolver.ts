import { Ctx, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { CachePolicyObject } from './admin.types';
import { CachePolicyService } from './cache-policy.service';

@Resolver()
export class AdminResolver {
  @Query(() => CachePolicyObject, { description: 'The cache lifetimes in force (X-Admin-Token).' })
  cachePolicy(@Ctx() ctx: GraphQLContext) {
    ctx.auth.requireHeaderToken('admin');
    return ctx.services.get(CachePolicyService).policy();
  }
}
