import { defineModule, onTopic, provide } from '../../kernel';
import { API_KEY_REVOKED_TOPIC, RevokedMessage } from './api-keys.limits';
import { ApiKeysResolver } from './api-keys.resolver';
import { ApiKeysService } from './api-keys.service';

export const apiKeysModule = defineModule({
  name: 'api-keys',
  resolvers: [ApiKeysResolver],
  services: [
    provide(
      ApiKeysService,
      ({ db, infra, now, config }) =>
        new ApiKeysService(db.prisma, infra.pubsub, infra.cache, {
          now,
          maxKeysPerOwner: config.marketData.keysPerOwner,
        }),
    ),
  ],
  topics: {
    publishes: [API_KEY_REVOKED_TOPIC],
    // A revocation in any process ends the key's cached lookups in every process.
    subscribes: [onTopic(API_KEY_REVOKED_TOPIC, ({ get }, m: RevokedMessage) => get(ApiKeysService).forget(m.keyHash))],
  },
});
