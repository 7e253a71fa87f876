import { defineModule, provide } from '../../kernel';
import { AdminResolver } from './admin.resolver';
import { CachePolicyService, HTTP_CACHE_ROUTES } from './cache-policy.service';

export const adminModule = defineModule({
  name: 'admin',
  resolvers: [AdminResolver],
  services: [
    provide(
      CachePolicyService,
      ({ infra, config, memos, get }) =>
        new CachePolicyService({
          store: infra.kind,
          etagMaxAgeSeconds: config.etagMaxAgeSeconds,
          answerTtlMs: config.readCaches.ttlMs,
          http: get(HTTP_CACHE_ROUTES),
          memos: () => memos().map(({ name, memo, invalidatedBy }) => ({ name, memo, invalidatedBy })),
        }),
    ),
  ],
});
