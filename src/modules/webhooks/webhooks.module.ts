import { defineModule, onTopic, provide } from '../../kernel';
import { CATALOG_CHANGED_TOPIC } from '../events/events.models';
import { WithdrawalsService } from '../funding/withdrawals.service';
import { TradeIngestService } from '../ingestion/trade-ingest.service';
import { LedgerService } from '../ledger/ledger.service';
import { IndexerWebhookService, ANNOUNCE_SWEEP_MS } from './indexer.service';
import { OutcomeTokenIndex } from './outcome-tokens';
import { PaymentWebhookService } from './payment-webhook.service';
import { WebhooksResolver } from './webhooks.resolver';
import { webhooksSettings } from './webhooks.settings';

export const webhooksModule = defineModule({
  name: 'webhooks',
  settings: webhooksSettings,
  resolvers: [WebhooksResolver],
  services: [
    provide(OutcomeTokenIndex, ({ db }) => new OutcomeTokenIndex(db.prisma)),
    provide(
      PaymentWebhookService,
      ({ db, config, now, get }) =>
        new PaymentWebhookService(
          db.prisma,
          get(LedgerService),
          get(WithdrawalsService),
          config.webhooks.paymentSecret,
          now,
        ),
    ),
    provide(
      IndexerWebhookService,
      ({ db, logger, now, get }) =>
        new IndexerWebhookService(db.prisma, db.sql, get(OutcomeTokenIndex), get(TradeIngestService), logger, now),
    ),
  ],
  topics: { subscribes: [onTopic(CATALOG_CHANGED_TOPIC, ({ get }) => get(OutcomeTokenIndex).invalidate())] },
  tasks: [
    {
      // Per process: the sweep claims each unannounced batch in the database (a timed claim), and stop
      // waits for the announcements this process's requests queued.
      name: 'fill announcements',
      start: ({ get }) => get(IndexerWebhookService).start(ANNOUNCE_SWEEP_MS),
      stop: ({ get }) => get(IndexerWebhookService).stop(),
    },
  ],
});
