import { z } from 'zod';
import {
  CostRundownDocument,
  CreateRouteDocument,
  type CostRundownQueryVariables,
  type CreateRouteMutationVariables,
} from '../schema/generated/operations';
import { ROUTING_LIMITS as L } from '../src/modules/routing/routing.limits';
import { VENUES } from '../src/venues/venue.models';
import { int, num, oneOf, requiredStr } from './params';
import { route } from './route.types';

const required = (what: string) => (iss: { input: unknown }) =>
  iss.input === undefined ? 'is required' : `must be ${what}`;
const id = z
  .string({ error: required('a string') })
  .min(1, { error: 'must not be empty' })
  .max(L.id.max, { error: `must be at most ${L.id.max} characters` });
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

/** `core_id` / `amount_usd` on the wire, `coreId` / `amountUsd` in the operation. */
const rundownVariables = ({ core_id, amount_usd, ...rest }: Record<string, unknown>) =>
  ({ ...rest, coreId: core_id, amountUsd: amount_usd }) as CostRundownQueryVariables;

/** Cost preview across venues and routing to a venue. */
export const routingRoutes = [
  route({
    id: 'costRundown',
    surface: 'trading',
    method: 'GET',
    path: '/cost-rundown',
    summary:
      'Cost of an order (`size` whole contracts or `amount_usd`) on every open market of a core event, both ' +
      'venues and outcomes: average and worst price, slippage against mid, fillable size, fees, all-in cost, ' +
      'and the best venue per question. `amount_usd=0` prices nothing (every quote 0). Some books of a venue ' +
      'unreadable: that venue is `partial` and `venues[].failedMarkets` names the markets left out, with ' +
      '`reason`; all of them: `unavailable`; no book readable on either venue: 503.',
    auth: 'none',
    params: {
      query: z.object({
        core_id: requiredStr(L.id.max),
        size: int(L.size.min, L.size.max),
        amount_usd: num(L.amountUsd.min, L.amountUsd.max),
        side: oneOf(['buy', 'sell']),
      }),
    },
    document: CostRundownDocument,
    variables: rundownVariables,
    result: 'costRundown',
    errors: [400, 404, 429, 503],
    tags: ['routing'],
  }),
  route({
    id: 'createRoute',
    surface: 'trading',
    method: 'POST',
    path: '/route',
    summary:
      'Picks the venue with the best all-in price for the order (or the given venue / market) and stores a ' +
      'quoted intent (venue, market, outcome, side, size, price, fees, expiry). No open market with the ' +
      'depth, or no candidate venue whose book can be read: 404 `no route found: <why>`.',
    auth: 'none',
    params: {
      body: z.object({
        coreId: id,
        userId: id,
        accountId: id,
        size: optional(z.number({ error: 'must be a number' })),
        venue: optional(z.enum(VENUES, { error: `must be one of ${VENUES.join(', ')}` })),
        marketId: optional(id),
        side: optional(z.enum(['buy', 'sell'], { error: 'must be one of buy, sell' })),
        outcome: optional(z.enum(['yes', 'no'], { error: 'must be one of yes, no' })),
      }),
    },
    document: CreateRouteDocument,
    variables: (input) => ({ input }) as CreateRouteMutationVariables,
    result: 'createRoute',
    errors: [400, 404, 429],
    tags: ['routing'],
  }),
];
