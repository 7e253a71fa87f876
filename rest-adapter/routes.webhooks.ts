import { z } from 'zod';
import { IngestVenueAFillsDocument, ReceivePaymentEventDocument } from '../schema/generated/operations';
import { MAX_FILL_BATCH } from '../src/modules/webhooks/webhooks.limits';
import { route } from './route.types';

const text = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .min(1, { error: 'is required' })
    .max(max, { error: `must be at most ${max} characters` });
/** uint256 values arrive as decimal strings (or, small enough, JSON numbers). */
const uint = (max: number) =>
  z
    .union(
      [z.string({ error: 'must be a decimal string' }), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)],
      {
        error: 'must be a non-negative integer (decimal string)',
      },
    )
    .transform(String)
    .pipe(
      z.string().regex(new RegExp(`^\\d{1,${max}}$`), { error: 'must be a non-negative integer (decimal string)' }),
    );

/** A record as the OpenAPI document describes it. */
const orderFilled = z.object({
  id: text(200),
  transactionHash: text(66),
  timestamp: uint(12),
  orderHash: text(66),
  maker: text(42),
  taker: text(42),
  makerAssetId: uint(78),
  takerAssetId: uint(78),
  makerAmountFilled: uint(30),
  takerAmountFilled: uint(30),
  fee: uint(30),
});

/**
 * The records' shape is documented, not parsed here: the service reads and
 * checks each record (a 400 naming `fills.<i>.<field>`), for REST and GraphQL
 * callers alike, so a delivery of a thousand is validated once.
 */
const { $schema: _dialect, ...orderFilledDoc } = z.toJSONSchema(orderFilled, { io: 'input' });
const documentedRecord = z.unknown().meta(orderFilledDoc);

/** Server-to-server webhooks: the payment processor and the on-chain indexer. */
export const webhookRoutes = [
  route({
    id: 'paymentWebhook',
    surface: 'trading',
    method: 'POST',
    path: '/webhooks/payments',
    summary:
      'Payment-processor events; `Payment-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`; idempotent ' +
      'per event id.',
    auth: 'payment-signature',
    rawBody: {
      variable: 'payload',
      description: 'A processor event `{ id, type, created, data }`, signed byte for byte.',
    },
    document: ReceivePaymentEventDocument,
    result: 'receivePaymentEvent',
    errors: [400, 500],
    tags: ['webhooks'],
  }),
  route({
    id: 'venueAFillsWebhook',
    surface: 'trading',
    method: 'POST',
    path: '/webhooks/chain-indexer/venue_a',
    summary:
      `A batch (at most ${MAX_FILL_BATCH}) of OrderFilled records for tracked wallets; writes trades ` +
      `idempotently on the fill identity.`,
    auth: 'indexer-secret',
    params: {
      body: z.object({
        fills: z
          .array(documentedRecord)
          .min(1, { error: 'must not be empty' })
          .max(MAX_FILL_BATCH, { error: `at most ${MAX_FILL_BATCH} records` }),
      }),
    },
    document: IngestVenueAFillsDocument,
    result: 'ingestVenueAFills',
    errors: [400, 401, 500],
    tags: ['webhooks'],
  }),
];
