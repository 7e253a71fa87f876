import { AppError } from '../../errors/app-error';
import type { Venue } from '../../venues/venue.models';
import { VENUES } from '../../venues/venue.models';
import { amountToMicros, toMicros } from '../../money';
import {
  EXECUTION_LIMITS as L,
  EXECUTION_MODES,
  ORDER_TYPES,
  type ExecutionMode,
  type OrderKind,
} from './execution.limits';
import { CHAINS } from '../wallets/wallets.limits';
import type { ExecuteRequest, SellRequest } from './execution.models';

/** A request that passed every check that does not need the catalog. */
export interface CheckedRequest extends ExecuteRequest {
  orderType: OrderKind;
  mode: ExecutionMode;
}

function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !allowed.includes(value as T))
    throw AppError.badRequest(field, `must be one of ${allowed.join(', ')}`);
  return value as T;
}

function text(field: string, value: unknown, required = false): string | undefined {
  if (value === undefined || value === null) {
    if (required) throw AppError.badRequest(field, 'is required');
    return undefined;
  }
  if (typeof value !== 'string' || value.trim() === '' || value.length > L.text.max) {
    throw AppError.badRequest(field, `must be a string of 1 to ${L.text.max} characters`);
  }
  return value;
}

function limitPriceOf(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const { min, max } = L.limitPrice;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max)
    throw AppError.badRequest('limitPrice', `must be a number from ${min} to ${max}`);
  return value;
}

/**
 * Order type: `limit` needs a limit price; a limit price alone makes a limit
 * order; `market` takes none (a limit price with it would silently make it a
 * limit order, so the pair is refused).
 */
function orderTypeOf(value: unknown, limitPrice: number | undefined): OrderKind {
  const orderType = oneOf('orderType', value, ORDER_TYPES) ?? (limitPrice === undefined ? 'market' : 'limit');
  if (orderType === 'limit' && limitPrice === undefined)
    throw AppError.badRequest('limitPrice', 'is required for a limit order');
  if (orderType === 'market' && limitPrice !== undefined) {
    throw AppError.badRequest('limitPrice', 'is not allowed with orderType market: omit it, or use orderType limit');
  }
  return orderType;
}

/**
 * Checks an `/execute` body (the rules both surfaces share; REST checked the
 * JSON types already). Sizes are checked against the venue once it is known.
 */
export function checkExecuteRequest(r: ExecuteRequest): CheckedRequest {
  const marketId = text('marketId', r.marketId, true)!;
  const side = oneOf('side', r.side, ['buy', 'sell'] as const);
  if (!side) throw AppError.badRequest('side', 'is required');
  const outcome = oneOf('outcome', r.outcome, ['yes', 'no'] as const);
  if (!outcome) throw AppError.badRequest('outcome', 'is required');
  if (typeof r.size !== 'number' || !Number.isFinite(r.size) || r.size < L.size.min || r.size > L.size.max) {
    throw AppError.badRequest('size', `must be a number of contracts from ${L.size.min} to ${L.size.max}`);
  }
  const limitPrice = limitPriceOf(r.limitPrice);
  const atomic = text('fundingAmountAtomic', r.fundingAmountAtomic);
  if (atomic !== undefined && !new RegExp(`^\\d{1,${L.atomicDigits.max}}$`).test(atomic)) {
    throw AppError.badRequest('fundingAmountAtomic', 'must be a non-negative integer in atomic units');
  }
  return {
    marketId,
    venueMarketId: text('venueMarketId', r.venueMarketId),
    side,
    outcome,
    size: r.size,
    limitPrice,
    orderType: orderTypeOf(r.orderType, limitPrice),
    mode: oneOf('mode', r.mode, EXECUTION_MODES) ?? 'simulation',
    venue: oneOf('venue', r.venue, VENUES),
    coreId: text('coreId', r.coreId),
    fundingSourceChain: oneOf('fundingSourceChain', r.fundingSourceChain, CHAINS),
    fundingSourceCurrency: text('fundingSourceCurrency', r.fundingSourceCurrency),
    fundingAmountAtomic: atomic,
    referrerId: text('referrerId', r.referrerId),
    eventTitle: text('eventTitle', r.eventTitle),
    marketTitle: text('marketTitle', r.marketTitle),
    eventSlug: text('eventSlug', r.eventSlug),
    category: text('category', r.category),
  };
}

/** Checks a position sell's optional body (the size against the position comes later). */
export function checkSellRequest(r: SellRequest): SellRequest & { orderType: OrderKind; mode: ExecutionMode } {
  if (
    r.size !== undefined &&
    r.size !== null &&
    (typeof r.size !== 'number' || !Number.isFinite(r.size) || r.size <= 0 || r.size > L.size.max)
  ) {
    throw AppError.badRequest('size', `must be a number of contracts above 0, at most ${L.size.max}`);
  }
  const limitPrice = limitPriceOf(r.limitPrice);
  return {
    size: r.size ?? undefined,
    limitPrice,
    orderType: orderTypeOf(r.orderType, limitPrice),
    mode: oneOf('mode', r.mode, EXECUTION_MODES) ?? 'simulation',
  };
}

/** The size in micro-contracts, within the venue's precision (venue_b: whole contracts). */
export function sizeMicrosFor(venue: Venue, size: number): bigint {
  const decimals = L.sizeDecimals[venue];
  if (size === 0) return 0n;
  const problem =
    decimals === 0 ? `${venue} trades whole contracts only` : `${venue} takes at most ${decimals} decimals`;
  try {
    amountToMicros(size, { min: L.size.min, max: L.size.max, decimals }, 'size');
  } catch {
    throw AppError.badRequest('size', problem);
  }
  return toMicros(size);
}
