import { defineSettings, setting } from '../../settings';

/** Webhooks of upstreams into this service. */
export const webhooksSettings = defineSettings({
  name: 'webhooks',
  title: 'Webhooks',
  variables: {
    PAYMENT_WEBHOOK_SECRET: setting.secret('payment webhook signature secret (unset: that webhook answers 500)'),
  },
  map: (v) => ({ webhooks: { paymentSecret: v.PAYMENT_WEBHOOK_SECRET } }),
});
