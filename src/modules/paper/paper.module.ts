import { defineModule, provide } from '../../kernel';
import { LedgerService } from '../ledger/ledger.service';
import { toMicros } from '../../money';
import { PaperResolver } from './paper.resolver';
import { PaperAccounts } from './paper.service';

/** Paper trading: the balance simulated orders settle against, and its reset. */
export const paperModule = defineModule({
  name: 'paper',
  resolvers: [PaperResolver],
  services: [
    provide(
      PaperAccounts,
      ({ db, config, get }) =>
        new PaperAccounts(db.prisma, get(LedgerService), toMicros(config.paper.startingBalanceUsd)),
    ),
  ],
});
