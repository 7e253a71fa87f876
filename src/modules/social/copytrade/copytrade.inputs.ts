import { Field, Float, InputType } from 'type-graphql';
import { AppError } from '../../../errors/app-error';
import { numberIn, oneOf, requiredOneOf, textOf } from '../../../errors/field-checks';
import { VenueEnum } from '../../../graphql/enums';
import { type Venue, VENUES } from '../../../venues/venue.models';
import { EXECUTION_MODES, type ExecutionMode } from '../../execution/execution.limits';
import { ExecutionModeEnum } from '../../execution/execution.types';
import { COPYTRADE_LIMITS as L, type CopytradeRequest } from './copytrade.limits';

/** The copytrade body. Its rules are checked by {@link checkCopytradeRequest} (one rule for REST and GraphQL). */
@InputType('CopytradeInput')
export class CopytradeInput {
  @Field(() => VenueEnum)
  venue: Venue;

  @Field({ description: 'The followed trader (venue_a: wallet).' })
  traderId: string;

  @Field({ description: "The trader's trade: `venue:venueTradeId` as trader pages list it, or the venue's trade id." })
  tradeId: string;

  @Field(() => Float, {
    nullable: true,
    description: `Contracts to copy, ${L.size.min}..${L.size.max}; exactly one of size and amountUsd.`,
  })
  size?: number;

  @Field(() => Float, {
    nullable: true,
    description: `USD to copy with, ${L.amountUsd.min}..${L.amountUsd.max}, converted at the current best price.`,
  })
  amountUsd?: number;

  @Field(() => ExecutionModeEnum, {
    nullable: true,
    description: 'Default simulation; live needs the wallet-auth token.',
  })
  mode?: ExecutionMode;

  @Field(() => Float, {
    nullable: true,
    description: "Tolerated |best price − trader's price|, 0..1; capped by the configured maximum.",
  })
  maxPriceDeviation?: number;
}

/** Checks a copytrade body: 400 naming the first field at fault. */
export function checkCopytradeRequest(r: Record<string, unknown>): CopytradeRequest {
  const venue = requiredOneOf('venue', r.venue, VENUES);
  const traderId = textOf('traderId', r.traderId, L.traderId.max, true);
  const tradeId = textOf('tradeId', r.tradeId, L.tradeId.max, true);
  const size = numberIn('size', r.size, L.size);
  const amountUsd = numberIn('amountUsd', r.amountUsd, L.amountUsd);
  if (size === undefined && amountUsd === undefined)
    throw AppError.badRequest('size', 'one of size and amountUsd is required');
  if (size !== undefined && amountUsd !== undefined)
    throw AppError.badRequest('amountUsd', 'give size or amountUsd, not both');
  const mode = oneOf('mode', r.mode, EXECUTION_MODES);
  return {
    venue,
    traderId,
    tradeId,
    size,
    amountUsd,
    mode,
    maxPriceDeviation: numberIn('maxPriceDeviation', r.maxPriceDeviation, L.maxPriceDeviation),
  };
}
