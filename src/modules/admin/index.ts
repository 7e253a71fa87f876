export {
  CachePolicyService,
  type CachePolicySources,
  type CachePolicyView,
  type PolicyMemo,
  type PolicyRoute,
} from './cache-policy.service';
export { AdminResolver } from './admin.resolver';
