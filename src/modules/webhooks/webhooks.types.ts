import { Field, InputType, Int, ObjectType } from 'type-graphql';
import type { FillBatchAck } from './indexer.service';
import type { OrderFilled } from './order-filled';
import type { PaymentEventOutcome, PaymentWebhookAck } from './payment-webhook.service';

@ObjectType('PaymentWebhookAck')
export class PaymentWebhookAckType implements PaymentWebhookAck {
  @Field(() => Boolean)
  received: true;
  @Field()
  eventId: string;
  @Field({ description: 'The event id was delivered before and nothing was done again.' })
  duplicate: boolean;
  @Field(() => String, {
    description: '`applied`, `recorded` (a failure noted), `ignored` (kind not handled) or `unmatched` (unknown object; not final: a redelivery applies the event again).',
  })
  outcome: PaymentEventOutcome;
}

@ObjectType('FillBatchAck')
export class FillBatchAckType implements FillBatchAck {
  @Field(() => Int)
  received: number;
  @Field(() => Int, { description: 'Records that wrote nothing: stored before, repeated, or on an unknown asset.' })
  skipped: number;
}

@InputType('OrderFilledInput', { description: "A Goldsky-style OrderFilled record of venue_a's exchange (uint256 values in decimal)." })
export class OrderFilledInput implements OrderFilled {
  @Field()
  id: string;
  @Field()
  transactionHash: string;
  @Field({ description: 'Unix seconds.' })
  timestamp: string;
  @Field()
  orderHash: string;
  @Field()
  maker: string;
  @Field()
  taker: string;
  @Field({ description: '0 for USDC, else an outcome token id.' })
  makerAssetId: string;
  @Field()
  takerAssetId: string;
  @Field({ description: 'Base units (6 decimals).' })
  makerAmountFilled: string;
  @Field()
  takerAmountFilled: string;
  @Field()
  fee: string;
}
