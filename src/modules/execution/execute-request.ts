import { AppError } from '../../errors/app-error';
import { numberIn, oneOf, requiredOneOf, textOf } from '../../errors/field-checks';
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

/** A free-text or id field of the body. */
const text = (field: string, value: unknown) => textOf(field, value, L.text.max);

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
  const marketId = textOf('marketId', r.marketId, L.text.max, true);
  const side = requiredOneOf('side', r.side, ['buy', 'sell'] as const);
  const outcome = requiredOneOf('outcome', r.outcome, ['yes', 'no'] as const);
  if (typeof r.size !== 'number' || !Number.isFinite(r.size) || r.size < L.size.min || r.size > L.size.max) {
    throw AppError.badRequest('size', `must be a number of contracts from ${L.size.min} to ${L.size.max}`);
  }
  const limitPrice = numberIn('limitPrice', r.limitPrice, L.limitPrice);
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

/**
 * Checks a position sell's optional body (the size against the position comes later). No `mode` means the
 * position's own: a paper position sells in simulation, a live one live.
 */
export function checkSellRequest(r: SellRequest): SellRequest & { orderType: OrderKind } {
  if (
    r.size !== undefined &&
    r.size !== null &&
    (typeof r.size !== 'number' || !Number.isFinite(r.size) || r.size <= 0 || r.size > L.size.max)
  ) {
    throw AppError.badRequest('size', `must be a number of contracts above 0, at most ${L.size.max}`);
  }
  const limitPrice = numberIn('limitPrice', r.limitPrice, L.limitPrice);
  return {
    size: r.size ?? undefined,
    limitPrice,
    orderType: orderTypeOf(r.orderType, limitPrice),
    mode: oneOf('mode', r.mode, EXECUTION_MODES),
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
