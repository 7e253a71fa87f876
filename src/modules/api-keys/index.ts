export { ApiKeysService, createApiKey, type NewApiKey } from './api-keys.service';
export {
  ApiKeyGate,
  credentialFrom,
  rateLimitHeaders,
  type Admission,
  type GateRequest,
  type RateLimitStatusView,
} from './api-key.gate';
export { ApiKeyAccess, apiKeyAccessFor, type HttpKeySource } from './api-key.access';
export { apiKeyGateMiddleware, type EndpointOf } from './api-key.middleware';
export * from './api-keys.limits';
export * from './api-keys.models';
export * from './api-key.codec';
