import { Field, Float, InputType } from 'type-graphql';
import { AppError } from '../../../errors/app-error';
import { VenueEnum } from '../../../graphql/enums';
import { VENUES } from '../../../venues/venue.models';
import { EXECUTION_MODES } from '../../execution/execution.limits';
import { ExecutionModeEnum } from '../../execution/execution.types';
import { COPYTRADE_LIMITS as L, type CopytradeRequest } from './copytrade.limits';

/** The copytrade body. Its rules are checked by {@link checkCopytradeRequest} (one rule for REST and GraphQL). */
@InputType('CopytradeInput')
export class CopytradeInput {
  @Field(() => VenueEnum)
  venue: VenueEnum;

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
  mode?: ExecutionModeEnum;

  @Field(() => Float, {
    nullable: true,
    description: "Tolerated |best price − trader's price|, 0..1; capped by the configured maximum.",
  })
  maxPriceDeviation?: number;
}

function numberIn(field: string, value: unknown, r: { min: number; max: number }): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < r.min || value > r.max)
    throw AppError.badRequest(field, `must be a number from ${r.min} to ${r.max}`);
  return value;
}

function textOf(field: string, value: unknown, max: number): string {
  if (value === undefined || value === null) throw AppError.badRequest(field, 'is required');
  if (typeof value !== 'string' || value.trim() === '' || value.length > max)
    throw AppError.badRequest(field, `must be a string of 1 to ${max} characters`);
  return value;
}

/** Checks a copytrade body: 400 naming the first field at fault. */
export function checkCopytradeRequest(r: Record<string, unknown>): CopytradeRequest {
  if (typeof r.venue !== 'string' || !(VENUES as readonly string[]).includes(r.venue)) {
    throw AppError.badRequest(
      'venue',
      r.venue === undefined || r.venue === null ? 'is required' : `must be one of ${VENUES.join(', ')}`,
    );
  }
  const traderId = textOf('traderId', r.traderId, L.traderId.max);
  const tradeId = textOf('tradeId', r.tradeId, L.tradeId.max);
  const size = numberIn('size', r.size, L.size);
  const amountUsd = numberIn('amountUsd', r.amountUsd, L.amountUsd);
  if (size === undefined && amountUsd === undefined)
    throw AppError.badRequest('size', 'one of size and amountUsd is required');
  if (size !== undefined && amountUsd !== undefined)
    throw AppError.badRequest('amountUsd', 'give size or amountUsd, not both');
  const mode = r.mode ?? undefined;
  if (mode !== undefined && (typeof mode !== 'string' || !(EXECUTION_MODES as readonly string[]).includes(mode))) {
    throw AppError.badRequest('mode', `must be one of ${EXECUTION_MODES.join(', ')}`);
  }
  return {
    venue: r.venue as CopytradeRequest['venue'],
    traderId,
    tradeId,
    size,
    amountUsd,
    mode: mode as CopytradeRequest['mode'],
    maxPriceDeviation: numberIn('maxPriceDeviation', r.maxPriceDeviation, L.maxPriceDeviation),
  };
}
