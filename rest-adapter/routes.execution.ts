import { z } from 'zod';
import {
  ExecuteDocument,
  ResetPaperAccountDocument,
  SellPositionDocument,
  type ExecuteSubscriptionVariables,
  type SellPositionSubscriptionVariables,
} from '../schema/generated/operations';
import { EXECUTION_LIMITS as L, EXECUTION_MODES, ORDER_TYPES } from '../src/modules/execution/execution.limits';
import { CHAINS } from '../src/modules/wallets/wallets.limits';
import { VENUES } from '../src/venues/venue.models';
import { enumField, numberField, optionalField, stringField } from './body-shape';
import { requiredStr } from './params';
import { route } from './route.types';

const text = optionalField(stringField({ minLength: 1, maxLength: L.text.max }));
const limitPrice = optionalField(numberField({ minimum: L.limitPrice.min, maximum: L.limitPrice.max }));
const orderType = optionalField(enumField(ORDER_TYPES));
const mode = optionalField(enumField(EXECUTION_MODES));

/**
 * The `/execute` body's shape; `checkExecuteRequest` (execution) is its rule, run by the execution service
 * before any stream opens.
 */
const executeBody = z.object({
  marketId: stringField({ minLength: 1, maxLength: L.text.max }),
  venueMarketId: text,
  side: enumField(['buy', 'sell']),
  outcome: enumField(['yes', 'no']),
  size: numberField({ minimum: L.size.min, maximum: L.size.max }),
  limitPrice,
  orderType,
  mode,
  venue: optionalField(enumField(VENUES)),
  coreId: text,
  fundingSourceChain: optionalField(enumField(CHAINS)),
  fundingSourceCurrency: text,
  fundingAmountAtomic: optionalField(stringField({ pattern: `^\\d{1,${L.atomicDigits.max}}$` })),
  referrerId: text,
  eventTitle: text,
  marketTitle: text,
  eventSlug: text,
  category: text,
});

/** A position sell's optional body; `checkSellRequest` (execution) is its rule. */
const sellBody = z.object({
  size: optionalField(numberField({ exclusiveMinimum: 0, maximum: L.size.max })),
  orderType,
  limitPrice,
  mode,
});

const EVENTS = 'accepted, quote, submitted, fill, then completed, failed or outcome_unknown';
const stream = { event: EVENTS, eventField: 'event', idField: 'id' };

/** Order execution streamed as server-sent events (the GraphQL `execute` / `sellPosition` subscriptions). */
export const executionRoutes = [
  route({
    id: 'execute',
    surface: 'trading',
    method: 'POST',
    path: '/execute',
    summary:
      'Runs an order and streams its progress (`event:` accepted, quote, submitted, fill…, then completed, ' +
      'failed or outcome_unknown; `id:` `<orderId>:<seq>`). `simulation` (default) fills against the current ' +
      "book: a bearer caller's paper account (paper balance and positions, never the USD balance), nothing " +
      'stored for an anonymous one; `live` needs the wallet-auth token, ' +
      "venue_a goes to the execution service: when it does not report the outcome in time (or venue_b's " +
      'answer to an order it may have taken is lost: a timeout or dropped connection after sending, a 5xx) ' +
      'the stream ends with `outcome_unknown`, the order stays `submitted` with its hold, and a reconciler ' +
      'settles or fails it later. `orderType` market with a `limitPrice` is a 400. Idempotency-Key replays ' +
      'the first outcome; a 502/503 before streaming leaves the key free.',
    auth: 'optional-bearer',
    params: { body: executeBody },
    document: ExecuteDocument,
    variables: (input) => ({ input }) as ExecuteSubscriptionVariables,
    result: 'execute',
    errors: [400, 401, 409, 429, 502, 503],
    stream,
    tags: ['execution'],
  }),
  route({
    id: 'sellPosition',
    surface: 'trading',
    method: 'POST',
    path: '/api/positions/{positionId}/sell',
    summary:
      "Sells from one of the caller's positions (optional body: `size` up to the position, `orderType`, " +
      "`limitPrice`, `mode`; default: all of it, at the position's exact size, at market, in the position's own " +
      'mode: a paper position sells in simulation, a live one live) and streams the execution like /execute.',
    auth: 'bearer',
    params: { path: z.object({ positionId: requiredStr(100) }), body: sellBody },
    document: SellPositionDocument,
    variables: ({ positionId, ...input }) => ({ positionId, input }) as SellPositionSubscriptionVariables,
    result: 'sellPosition',
    errors: [400, 401, 404, 409, 429, 502, 503],
    stream,
    tags: ['execution'],
  }),
  route({
    id: 'resetPaperAccount',
    surface: 'trading',
    method: 'POST',
    path: '/api/paper/reset',
    summary:
      "Puts the caller's paper account back to its starting balance and closes every paper position (paper " +
      'orders stay as history). Simulated orders trade in the paper account only.',
    auth: 'bearer',
    document: ResetPaperAccountDocument,
    result: 'resetPaperAccount',
    errors: [401],
    tags: ['execution'],
  }),
];
