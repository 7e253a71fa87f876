import { defineModule, provide } from '../../kernel';
import { VERSION } from '../../version';
import { OpsResolver } from './ops.resolver';
import { OpsService } from './ops.service';

export const opsModule = defineModule({
  name: 'ops',
  resolvers: [OpsResolver],
  services: [
    provide(
      OpsService,
      ({ db, infra, metrics, config, now, shuttingDown }) =>
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
          },
          now,
        ),
    ),
  ],
});
