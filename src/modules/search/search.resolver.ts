import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { rateLimitSubject } from '../../auth/rate-limit-subject';
import type { GraphQLContext } from '../../context';
import { SearchEventsArgs } from './search.inputs';
import type { SearchResultView } from './search.models';
import { EventSearchResultType } from './search.types';
import { SearchService } from './search.service';

@Resolver()
export class SearchResolver {
  @Query(() => EventSearchResultType, {
    description:
      'Semantic search over event titles, descriptions and outcomes. 503 without an embedding key (remote ' +
      'provider), 502 when the embedding service fails; rate limited per client (the user, else the address).',
  })
  async searchEvents(@Args() args: SearchEventsArgs, @Ctx() ctx: GraphQLContext): Promise<SearchResultView> {
    await ctx.services.rateLimits.consume('search', await rateLimitSubject(ctx));
    return ctx.services.get(SearchService).search(args);
  }
}
