import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { FillBatchAckType, OrderFilledBatchScalar, PaymentWebhookAckType } from './webhooks.types';
import { IndexerWebhookService } from './indexer.service';
import { PaymentWebhookService } from './payment-webhook.service';

@Resolver()
export class WebhooksResolver {
  @Mutation(() => PaymentWebhookAckType, {
    description: 'Payment-processor event: `payload` is the exact body the `Payment-Signature` header signs.',
  })
  receivePaymentEvent(@Arg('payload') payload: string, @Ctx() ctx: GraphQLContext) {
    return ctx.services.get(PaymentWebhookService).receive(payload, ctx.header('payment-signature'));
  }

  @Mutation(() => FillBatchAckType, {
    description: 'venue_a fills from the chain indexer (X-Indexer-Secret); idempotent on the fill identity.',
  })
  ingestVenueAFills(@Arg('fills', () => OrderFilledBatchScalar) fills: unknown[], @Ctx() ctx: GraphQLContext) {
    ctx.auth.requireHeaderToken('indexer');
    return ctx.services.get(IndexerWebhookService).receive(fills);
  }
}
