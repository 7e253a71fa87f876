import { GraphQLScalarType, Kind, valueFromASTUntyped } from 'graphql';
import { AppError } from '../../errors/app-error';
import { Field, Int, ObjectType } from 'type-graphql';
import type { FillBatchAck } from './indexer.service';
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
    description:
      '`applied`, `recorded` (a failure noted), `ignored` (kind not handled) or `unmatched` (unknown object; ' +
      'not final: a redelivery applies the event again).',
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

const notAList = () => AppError.badRequest('fills', 'must be a list of OrderFilled records');

/**
 * A delivery's records as one value. Each record is read and checked by the
 * service (400 naming `fills.<i>.<field>`), so GraphQL does not coerce a
 * thousand input objects field by field first: a bulk webhook payload, not a
 * query a client composes.
 */
export const OrderFilledBatchScalar = new GraphQLScalarType<unknown[], unknown[]>({
  name: 'OrderFilledBatch',
  description:
    "A list (at most 1,000) of Goldsky-style OrderFilled records of venue_a's exchange: `{ id, " +
    'transactionHash, timestamp, orderHash, maker, taker, makerAssetId, takerAssetId, makerAmountFilled, ' +
    'takerAmountFilled, fee }`, uint256 values as decimal strings (integers may be JSON numbers), `timestamp` ' +
    'in unix seconds, amounts in base units (6 decimals), asset id 0 for USDC.',
  serialize: (value): unknown[] => {
    if (!Array.isArray(value)) throw notAList();
    return value as unknown[];
  },
  parseValue: (value): unknown[] => {
    if (!Array.isArray(value)) throw notAList();
    return value as unknown[];
  },
  parseLiteral: (ast, variables) => {
    if (ast.kind !== Kind.LIST) throw notAList();
    return valueFromASTUntyped(ast, variables) as unknown[];
  },
});
