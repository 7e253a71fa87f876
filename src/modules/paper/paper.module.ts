import { defineModule, provide } from '../../kernel';
import { LedgerService } from '../ledger/ledger.service';
import { toMicros } from '../../money';
import { PaperResolver } from './paper.resolver';
import { PaperAccounts } from './paper.service';
import { paperSettings } from './paper.settings';

/** Paper trading: the balance simulated orders settle against, and its reset. */
export const paperModule = defineModule({
  name: 'paper',
  settings: paperSettings,
  resolvers: [PaperResolver],
  services: [
    provide(
      PaperAccounts,
      ({ db, config, get }) =>
        new PaperAccounts(db.prisma, get(LedgerService), toMicros(config.paper.startingBalanceUsd)),
    ),
  ],
});
