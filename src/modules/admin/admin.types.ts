import { Field, Float, Int, ObjectType } from 'type-graphql';
import type { CachedRouteRef } from './cache-policy.service';

@ObjectType('HistoryCacheTtl')
export class HistoryCacheTtlObject {
  @Field()
  interval: string;
  @Field(() => Int)
  seconds: number;
}

@ObjectType('HistoryCachePolicy', { description: 'Chart history: one venue series per entry, in the shared cache.' })
export class HistoryCachePolicyObject {
  @Field({ description: '`redis` or `memory` (in-process).' })
  store: string;
  @Field()
  keyedBy: string;
  @Field(() => [HistoryCacheTtlObject], { description: 'Lifetime per interval.' })
  ttls: HistoryCacheTtlObject[];
}

@ObjectType('CachedRouteRef')
export class CachedRouteRefObject implements CachedRouteRef {
  @Field()
  surface: string;
  @Field()
  method: string;
  @Field()
  path: string;
}

@ObjectType('EtagPolicy', { description: 'Conditional requests: weak ETags over the body, 304 on If-None-Match.' })
export class EtagPolicyObject {
  @Field(() => Int)
  maxAgeSeconds: number;
  @Field({ description: 'The Cache-Control header sent with the ETag.' })
  cacheControl: string;
  @Field(() => [CachedRouteRefObject])
  routes: CachedRouteRefObject[];
}

@ObjectType('ResponseCachePolicy', {
  description: 'A REST route whose serialized responses are memoized per variables.',
})
export class ResponseCachePolicyObject extends CachedRouteRefObject {
  @Field()
  routeId: string;
  @Field(() => Float)
  ttlSeconds: number;
  @Field({ description: '`process`: each server process keeps its own.' })
  scope: string;
  @Field({ description: 'The pub/sub topic that clears it in every process.' })
  invalidatedBy: string;
}

@ObjectType('MemoPolicy', { description: 'A per-process read memo of a service.' })
export class MemoPolicyObject {
  @Field()
  name: string;
  @Field(() => Float)
  ttlSeconds: number;
  @Field()
  scope: string;
  @Field()
  invalidatedBy: string;
}

@ObjectType('ApiKeyLookupPolicy', { description: 'Market-data API key lookups, cached per process.' })
export class ApiKeyLookupPolicyObject {
  @Field(() => Float)
  ttlSeconds: number;
  @Field(() => Int)
  maxEntries: number;
  @Field()
  scope: string;
  @Field({ description: 'Revocations announced on this topic drop the entry at once.' })
  invalidatedBy: string;
}

@ObjectType('CachePolicy', { description: 'The cache lifetimes in force.' })
export class CachePolicyObject {
  @Field({ description: 'Where the shared cache lives: `redis` or `memory` (in-process).' })
  store: string;
  @Field(() => HistoryCachePolicyObject)
  history: HistoryCachePolicyObject;
  @Field(() => EtagPolicyObject)
  etag: EtagPolicyObject;
  @Field(() => [ResponseCachePolicyObject])
  responseCaches: ResponseCachePolicyObject[];
  @Field(() => [MemoPolicyObject])
  memos: MemoPolicyObject[];
  @Field(() => ApiKeyLookupPolicyObject)
  apiKeyLookup: ApiKeyLookupPolicyObject;
}
