import { SignedCursor } from '../../http/signed-cursor';
import { defineModule, provide } from '../../kernel';
import { comparisonsLoaders } from './comparisons.loaders';
import { ComparisonsResolver } from './comparisons.resolver';
import { ComparisonsService } from './comparisons.service';

export const comparisonsModule = defineModule({
  name: 'comparisons',
  resolvers: [ComparisonsResolver],
  services: [
    provide(
      ComparisonsService,
      ({ db, config }) => new ComparisonsService(db.prisma, new SignedCursor(config.cursorSecret)),
    ),
  ],
  loaders: [comparisonsLoaders],
});
