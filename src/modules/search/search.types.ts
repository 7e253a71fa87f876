import { Field, Float, Int, ObjectType } from 'type-graphql';
import { EventType } from '../events/events.types';
import type { EventView } from '../events/events.models';
import type { SearchHitView, SearchMethod, SearchResultView } from './search.models';

@ObjectType('EventSearchHit', { description: 'An event found by semantic search, with its similarity to the query.' })
export class EventSearchHitType implements SearchHitView {
  @Field(() => Float, { description: 'Cosine similarity of the query and the event text (−1..1; higher is closer).' })
  score: number;
  @Field(() => EventType)
  event: EventView;
}

@ObjectType('EventSearchResult', { description: 'Events ranked by semantic similarity to a query.' })
export class EventSearchResultType implements SearchResultView {
  @Field(() => [EventSearchHitType], { description: 'Best first; ties by event id.' })
  data: SearchHitView[];
  @Field({ description: 'The query as searched (trimmed).' })
  query: string;
  @Field(() => Int)
  limit: number;
  @Field(() => Float)
  threshold: number;
  @Field({ description: 'The embedder: `local` or `remote`.' })
  provider: string;
  @Field({ description: "The embedder's model." })
  model: string;
  @Field(() => String, { description: '`pgvector` (in the database) or `exact` (in process); both rank identically.' })
  method: SearchMethod;
}
