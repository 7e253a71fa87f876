import { Args, Ctx, Query, Resolver } from 'type-graphql';
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
      'provider), 502 when the embedding service fails.',
  })
  searchEvents(@Args() args: SearchEventsArgs, @Ctx() ctx: GraphQLContext): Promise<SearchResultView> {
    return ctx.services.get(SearchService).search(args);
  }
}
