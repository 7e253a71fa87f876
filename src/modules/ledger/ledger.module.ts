import { defineModule, provide } from '../../kernel';
import { FeeListeners } from './fee-events';
import { LedgerService } from './ledger.service';

/** The balance ledger every money movement posts to, and the listeners told of each trading fee. */
export const ledgerModule = defineModule({
  name: 'ledger',
  services: [
    provide(LedgerService, ({ db }) => new LedgerService(db.prisma)),
    provide(FeeListeners, () => new FeeListeners()),
  ],
});
