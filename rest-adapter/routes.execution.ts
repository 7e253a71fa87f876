import { z } from 'zod';
import {
  ExecuteDocument,
  SellPositionDocument,
  type ExecuteSubscriptionVariables,
  type SellPositionSubscriptionVariables,
} from '../schema/generated/operations';
import {
  EXECUTION_LIMITS as L,
  EXECUTION_MODES,
  FUNDING_CHAINS,
  ORDER_TYPES,
} from '../src/modules/execution/execution.limits';
import { VENUES } from '../src/venues/venue.types';
import { requiredStr } from './params';
import { route } from './route.types';

const required = (what: string) => (iss: { input: unknown }) =>
  iss.input === undefined ? 'is required' : `must be ${what}`;
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);
const text = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(L.text.max, { error: `must be at most ${L.text.max} characters` });
const choice = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });
const limitPrice = optional(
  z
    .number({ error: 'must be a number from 0 to 1' })
    .min(0, { error: 'must be a number from 0 to 1' })
    .max(1, { error: 'must be a number from 0 to 1' }),
);

/** The `/execute` body, checked before any stream opens (the service checks the rest, e.g. venue precision). */
const executeBody = z.object({
  marketId: z
    .string({ error: required('a string') })
    .min(1, { error: 'must not be empty' })
    .max(L.text.max, { error: `must be at most ${L.text.max} characters` }),
  venueMarketId: optional(text),
  side: z.enum(['buy', 'sell'], { error: required('one of buy, sell') }),
  outcome: z.enum(['yes', 'no'], { error: required('one of yes, no') }),
  size: z
    .number({ error: required('a number') })
    .min(L.size.min, { error: `must be a number from ${L.size.min} to ${L.size.max}` })
    .max(L.size.max, { error: `must be a number from ${L.size.min} to ${L.size.max}` }),
  limitPrice,
  orderType: optional(choice(ORDER_TYPES)),
  mode: optional(choice(EXECUTION_MODES)),
  venue: optional(choice(VENUES)),
  coreId: optional(text),
  fundingSourceChain: optional(choice(FUNDING_CHAINS)),
  fundingSourceCurrency: optional(text),
  fundingAmountAtomic: optional(
    z
      .string({ error: 'must be a string' })
      .regex(/^\d{1,78}$/, { error: 'must be a non-negative integer in atomic units' }),
  ),
  referrerId: optional(text),
  eventTitle: optional(text),
  marketTitle: optional(text),
  eventSlug: optional(text),
  category: optional(text),
});

const sellBody = z.object({
  size: optional(
    z
      .number({ error: 'must be a number' })
      .gt(0, { error: 'must be above 0' })
      .max(L.size.max, { error: `must be at most ${L.size.max}` }),
  ),
  orderType: optional(choice(ORDER_TYPES)),
  limitPrice,
  mode: optional(choice(EXECUTION_MODES)),
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
      'book (stored for a bearer caller, not for an anonymous one); `live` needs the wallet-auth token, ' +
      'venue_a goes to the execution service: when it does not report the outcome in time the stream ends ' +
      'with `outcome_unknown`, the order stays `submitted` with its hold, and a reconciler settles or fails ' +
      'it later. `orderType` market with a `limitPrice` is a 400. Idempotency-Key replays the first outcome; ' +
      'a 502/503 before streaming leaves the key free.',
    auth: 'optional-bearer',
    params: { body: executeBody },
    document: ExecuteDocument,
    variables: (input) => ({ input }) as ExecuteSubscriptionVariables,
    result: 'execute',
    errors: [400, 401, 409, 502, 503],
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
      "`limitPrice`, `mode`; default: all of it, at the position's exact size, at market) and streams the " +
      'execution like /execute.',
    auth: 'bearer',
    params: { path: z.object({ positionId: requiredStr(100) }), body: sellBody },
    document: SellPositionDocument,
    variables: ({ positionId, ...input }) => ({ positionId, input }) as SellPositionSubscriptionVariables,
    result: 'sellPosition',
    errors: [400, 401, 404, 409, 502, 503],
    stream,
    tags: ['execution'],
  }),
];
