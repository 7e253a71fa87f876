import { hash } from 'node:crypto';
import { AppError } from '../../errors/app-error';
import type { PublicTrade, Side } from '../../venues/venue.models';
import type { OutcomeToken } from './outcome-tokens';
import { MICROS_PER_UNIT, ratioMicros, microsToNumber } from '../../money/money';

/** A Goldsky-style OrderFilled record of venue_a's exchange contract (uint256 values as decimal strings). */
export interface OrderFilled {
  id: string;
  transactionHash: string;
  /** Unix seconds of the block. */
  timestamp: string;
  orderHash: string;
  maker: string;
  taker: string;
  makerAssetId: string;
  takerAssetId: string;
  makerAmountFilled: string;
  takerAmountFilled: string;
  fee: string;
}

/** A fill checked and reduced to what a trade needs. */
export interface CheckedFill {
  trader: string;
  side: Side;
  tokenId: string;
  /** USDC paid or received, base units (6 decimals). */
  usdc: bigint;
  /** Outcome tokens bought or sold, base units (6 decimals). */
  tokens: bigint;
  filledAt: Date;
}

const FIELDS = [
  'id',
  'transactionHash',
  'timestamp',
  'orderHash',
  'maker',
  'taker',
  'makerAssetId',
  'takerAssetId',
  'makerAmountFilled',
  'takerAmountFilled',
  'fee',
] as const;
/** Fields that are integers: a JSON number is taken for them as well as a decimal string. */
const INTEGER_FIELDS = new Set<string>([
  'timestamp',
  'makerAssetId',
  'takerAssetId',
  'makerAmountFilled',
  'takerAmountFilled',
  'fee',
]);

/**
 * Reads record `i` of a delivery as it arrived (JSON): an object whose fields
 * are strings, integers also as JSON numbers; a 400 naming `fills.<i>[.<field>]`
 * otherwise. {@link checkFill} then checks what the values mean.
 */
export function readFill(raw: unknown, i: number): OrderFilled {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw AppError.badRequest(`fills.${i}`, 'must be an OrderFilled object');
  const record = raw as Record<string, unknown>;
  // Copied only when a JSON number has to become a string: most deliveries send strings.
  let out: Record<string, unknown> | null = null;
  for (const k of FIELDS) {
    const v = record[k];
    if (typeof v === 'string') continue;
    if (typeof v === 'number' && INTEGER_FIELDS.has(k) && Number.isSafeInteger(v) && v >= 0)
      (out ??= { ...record })[k] = String(v);
    else
      throw AppError.badRequest(`fills.${i}.${k}`, v === undefined || v === null ? 'is required' : 'must be a string');
  }
  return (out ?? record) as unknown as OrderFilled;
}

const HASH = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const UINT = /^\d{1,78}$/;
const AMOUNT = /^\d{1,30}$/;
/** How far a fill's block time may be ahead of this server's clock (seconds). */
export const MAX_CLOCK_SKEW_SECONDS = 3600;
/**
 * Outcome tokens (base units) a fill may carry, exclusive: Decimal(20, 6) holds sizes below 1e14
 * contracts, and a size is a float64 on its way there, which rounds amounts within 8,192 units of
 * 1e20 up to 1e20; a million units of margin keeps every accepted amount storable.
 */
export const MAX_TOKENS = 10n ** 20n - 10n ** 6n;

/**
 * Checks one record (a 400 naming `fills.<i>.<field>` otherwise) and reads it
 * from the maker's side: asset id 0 is USDC, so makerAssetId 0 means the maker
 * paid USDC for outcome tokens (a buy), takerAssetId 0 a sale. Exactly one side
 * must be USDC.
 */
export function checkFill(f: OrderFilled, i: number, nowSeconds: number): CheckedFill {
  const bad = (field: string, problem: string) => AppError.badRequest(`fills.${i}.${field}`, problem);
  if (typeof f.id !== 'string' || f.id.length < 1 || f.id.length > 200) throw bad('id', 'must be 1 to 200 characters');
  for (const k of ['transactionHash', 'orderHash'] as const)
    if (!HASH.test(f[k])) throw bad(k, 'must be 0x and 64 hex digits');
  for (const k of ['maker', 'taker'] as const) if (!ADDRESS.test(f[k])) throw bad(k, 'must be 0x and 40 hex digits');
  for (const k of ['makerAssetId', 'takerAssetId'] as const)
    if (!UINT.test(f[k])) throw bad(k, 'must be a uint256 in decimal');
  for (const k of ['makerAmountFilled', 'takerAmountFilled', 'fee'] as const)
    if (!AMOUNT.test(f[k])) throw bad(k, 'must be a non-negative integer');
  if (!/^\d{1,12}$/.test(f.timestamp) || Number(f.timestamp) < 1) throw bad('timestamp', 'must be unix seconds');
  // Block times may run a little ahead of this server's clock: up to the allowed skew, not more.
  if (Number(f.timestamp) > nowSeconds + MAX_CLOCK_SKEW_SECONDS) {
    throw bad('timestamp', `must not be more than ${MAX_CLOCK_SKEW_SECONDS / 3600} hour ahead of the server clock`);
  }
  const makerAsset = BigInt(f.makerAssetId);
  const takerAsset = BigInt(f.takerAssetId);
  if ((makerAsset === 0n) === (takerAsset === 0n))
    throw bad('makerAssetId', 'exactly one of makerAssetId and takerAssetId must be 0 (USDC)');
  const buy = makerAsset === 0n;
  const usdc = BigInt(buy ? f.makerAmountFilled : f.takerAmountFilled);
  const tokens = BigInt(buy ? f.takerAmountFilled : f.makerAmountFilled);
  if (tokens <= 0n || tokens >= MAX_TOKENS)
    throw bad(
      buy ? 'takerAmountFilled' : 'makerAmountFilled',
      `outcome tokens must be positive and below ${MAX_TOKENS} base units`,
    );
  // Prices are in (0, 1] USDC per token; micro-unit rounding must keep them above 0.
  if (usdc <= 0n || usdc > tokens || (usdc * MICROS_PER_UNIT) / tokens === 0n) {
    throw bad(buy ? 'makerAmountFilled' : 'takerAmountFilled', 'price (USDC / tokens) must be in (0, 1]');
  }
  return {
    trader: f.maker.toLowerCase(),
    side: buy ? 'buy' : 'sell',
    tokenId: (buy ? takerAsset : makerAsset).toString(10),
    usdc,
    tokens,
    filledAt: new Date(Number(f.timestamp) * 1000),
  };
}

/**
 * The trade id of a fill: a digest of its identity (venue, market, trader,
 * side, fill time), so every delivery of the same fill maps to one trade row
 * through the trades table's (venue, venueTradeId) unique key.
 */
export function fillTradeId(venueMarketId: string, trader: string, side: Side, filledAt: Date): string {
  const identity = ['venue_a', venueMarketId, trader, side, filledAt.toISOString()].join('|');
  return `fill_${hash('sha256', identity, 'hex').slice(0, 40)}`;
}

/** The public trade of a checked fill on a known market outcome. */
export function fillToTrade(c: CheckedFill, token: OutcomeToken): PublicTrade {
  const priceMicros = ratioMicros(c.usdc, c.tokens);
  return {
    venue: 'venue_a',
    venueTradeId: fillTradeId(token.venueMarketId, c.trader, c.side, c.filledAt),
    venueMarketId: token.venueMarketId,
    venueTraderId: c.trader,
    side: c.side,
    outcome: token.outcome,
    price: microsToNumber(priceMicros),
    size: microsToNumber(c.tokens),
    filledAt: c.filledAt,
  };
}
