export {
  CachePolicyService,
  HTTP_CACHE_ROUTES,
  type HttpCacheRoutes,
  type CachePolicySources,
  type CachePolicyView,
  type PolicyMemo,
  type PolicyRoute,
} from './cache-policy.service';
