import { defineModule, provide } from '../../kernel';
import { VERSION } from '../../version';
import { VenueStreamStatus } from '../market-streams/stream-status';
import { OpsResolver } from './ops.resolver';
import { OpsService } from './ops.service';

export const opsModule = defineModule({
  name: 'ops',
  resolvers: [OpsResolver],
  services: [
    provide(
      OpsService,
      ({ db, infra, metrics, config, now, shuttingDown, get }) =>
        new OpsService(
          db.prisma,
          {
            startedAt: new Date(),
            version: VERSION,
            database: db.kind,
            infra: infra.kind,
            openStreams: () => metrics.openStreams(),
            simTradeRate: config.sim.tradeRate,
            shuttingDown,
            venueStreams: () => get(VenueStreamStatus).view(),
          },
          now,
        ),
    ),
  ],
});
