import { defineModule, provide } from '../../kernel';
import { TradeRecorder } from '../execution/trade-recorder';
import { LedgerService } from '../ledger/ledger.service';
import { AccountAnnouncer } from './account-announcer';
import { ACCOUNT_TOPIC } from './account-streams.models';
import { AccountStreamsResolver } from './account-streams.resolver';

/**
 * Each user's own account changes, live: the orders the recorder writes (with their fills and
 * positions) and the balances the ledger moves, announced on `account#<userId>` once committed.
 */
export const accountStreamsModule = defineModule({
  name: 'account-streams',
  resolvers: [AccountStreamsResolver],
  services: [
    provide(AccountAnnouncer, ({ infra, logger, get }) => {
      const announcer = new AccountAnnouncer(infra.pubsub, logger);
      get(TradeRecorder).watch(announcer);
      get(LedgerService).watchBalances(announcer);
      return announcer;
    }),
  ],
  topics: { publishes: [ACCOUNT_TOPIC] },
});
