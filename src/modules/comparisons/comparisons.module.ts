import { SignedCursor } from '../../http/signed-cursor';
import { defineModule, provide } from '../../kernel';
import { CATALOG_CHANGED_TOPIC } from '../events/events.models';
import { comparisonsLoaders } from './comparisons.loaders';
import { ComparisonsResolver } from './comparisons.resolver';
import { ComparisonsService } from './comparisons.service';

export const comparisonsModule = defineModule({
  name: 'comparisons',
  resolvers: [ComparisonsResolver],
  services: [
    provide(
      ComparisonsService,
      ({ db, config, memo }) =>
        new ComparisonsService(
          db.prisma,
          new SignedCursor(config.cursorSecret),
          memo('comparisons', CATALOG_CHANGED_TOPIC),
        ),
    ),
  ],
  loaders: [comparisonsLoaders],
});
