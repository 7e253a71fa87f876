import { defineModule, provide } from '../../kernel';
import { createIdentityProvider } from './identity.client';
import { LinkProofResolver } from './linkproof.resolver';
import { LinkProofService } from './linkproof.service';
import { linkProofSettings } from './linkproof.settings';

export const linkProofModule = defineModule({
  name: 'linkproof',
  settings: linkProofSettings,
  resolvers: [LinkProofResolver],
  services: [
    provide(
      LinkProofService,
      ({ db, config, now }) => new LinkProofService(db.prisma, createIdentityProvider(config, now), now),
    ),
  ],
});
