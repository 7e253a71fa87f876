import { ServiceToken } from '../../kernel';
import { API_KEY_REVOKED_TOPIC } from '../api-keys/api-keys.limits';
import { LOOKUP_MAX_ENTRIES, LOOKUP_TTL_MS } from '../api-keys/api-keys.service';
import { HISTORY_CACHE_TTL_SECONDS, HISTORY_INTERVALS } from '../charts/charts.limits';

/** A REST route as the route table describes it (what the policy reads of it). */
export interface PolicyRoute {
  id: string;
  surface: string;
  method: string;
  path: string;
  etag?: boolean;
  cache?: { invalidatedBy: string };
}

/** A per-process memo in use: its name, the object itself (its `ttlMs`), and the topic that clears it. */
export interface PolicyMemo {
  name: string;
  memo: { readonly ttlMs: number };
  invalidatedBy: string;
}

/** The REST adapter's caching, as the composition root hands it to the policy (the route table is data). */
export interface HttpCacheRoutes {
  /** The REST route table. */
  routes(): readonly PolicyRoute[];
  /** The Cache-Control header the REST adapter sends with an ETag. */
  etagCacheControl(maxAgeSeconds: number): string;
}

/** Provided by the composition root, which owns both the route table and the services. */
export const HTTP_CACHE_ROUTES = new ServiceToken<HttpCacheRoutes>('admin.httpCacheRoutes');

/** Where the policy reads each lifetime: the objects and tables that enforce them, never copies. */
export interface CachePolicySources {
  /** Where the shared cache lives (`redis` or in-process `memory`). */
  store: 'redis' | 'memory';
  etagMaxAgeSeconds: number;
  /** How long a cached answer lives at most (`READ_CACHE_TTL_MS`): the answer cache's, every cached route's. */
  answerTtlMs: number;
  http: HttpCacheRoutes;
  /** The per-process memos in use (read when asked: modules make them as they are built). */
  memos(): readonly PolicyMemo[];
}

/** Which REST route a policy applies to. */
export type CachedRouteRef = Pick<PolicyRoute, 'surface' | 'method' | 'path'>;

const routeRef = (r: PolicyRoute): CachedRouteRef => ({ surface: r.surface, method: r.method, path: r.path });

export interface CachePolicyView {
  store: string;
  history: { store: string; keyedBy: string; ttls: { interval: string; seconds: number }[] };
  etag: { maxAgeSeconds: number; cacheControl: string; routes: CachedRouteRef[] };
  responseCaches: (CachedRouteRef & { routeId: string; ttlSeconds: number; scope: string; invalidatedBy: string })[];
  memos: { name: string; ttlSeconds: number; scope: string; invalidatedBy: string }[];
  apiKeyLookup: { ttlSeconds: number; maxEntries: number; scope: string; invalidatedBy: string };
}

const seconds = (ms: number) => ms / 1000;

/** The cache lifetimes in force, read from where each is defined. */
export class CachePolicyService {
  constructor(private readonly s: CachePolicySources) {}

  policy(): CachePolicyView {
    const routes = this.s.http.routes();
    return {
      store: this.s.store,
      history: {
        store: this.s.store,
        keyedBy: 'venue, market, interval and bucket range',
        ttls: HISTORY_INTERVALS.map((interval) => ({ interval, seconds: HISTORY_CACHE_TTL_SECONDS[interval] })),
      },
      etag: {
        maxAgeSeconds: this.s.etagMaxAgeSeconds,
        cacheControl: this.s.http.etagCacheControl(this.s.etagMaxAgeSeconds),
        routes: routes.filter((r) => r.etag).map(routeRef),
      },
      responseCaches: routes.flatMap((r) =>
        r.cache
          ? [
              {
                routeId: r.id,
                ...routeRef(r),
                ttlSeconds: seconds(this.s.answerTtlMs),
                scope: 'process',
                invalidatedBy: r.cache.invalidatedBy,
              },
            ]
          : [],
      ),
      memos: this.s.memos().map((m) => ({
        name: m.name,
        ttlSeconds: seconds(m.memo.ttlMs),
        scope: 'process',
        invalidatedBy: m.invalidatedBy,
      })),
      apiKeyLookup: {
        ttlSeconds: seconds(LOOKUP_TTL_MS),
        maxEntries: LOOKUP_MAX_ENTRIES,
        scope: 'process',
        invalidatedBy: API_KEY_REVOKED_TOPIC,
      },
    };
  }
}
