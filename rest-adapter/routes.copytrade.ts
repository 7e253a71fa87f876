import { z } from 'zod';
import { CopytradeDocument, type CopytradeMutationVariables } from '../schema/generated/operations';
import { EXECUTION_MODES } from '../src/modules/execution/execution.limits';
import { COPYTRADE_LIMITS as L } from '../src/modules/social/copytrade/copytrade.limits';
import { VENUES } from '../src/venues/venue.models';
import { enumField, numberField, optionalField, stringField } from './body-shape';
import { route } from './route.types';

const text = (max: number) => stringField({ minLength: 1, maxLength: max });
const range = (r: { min: number; max: number }) => optionalField(numberField({ minimum: r.min, maximum: r.max }));

/**
 * The copytrade body's shape; `checkCopytradeRequest` (copytrade) is its rule (bounds, one of size / amountUsd),
 * and the service checks the rest (venue precision, caps).
 */
const copytradeBody = z.object({
  venue: enumField(VENUES),
  traderId: text(L.traderId.max),
  tradeId: text(L.tradeId.max),
  size: range(L.size),
  amountUsd: range(L.amountUsd),
  mode: optionalField(enumField(EXECUTION_MODES)),
  maxPriceDeviation: range(L.maxPriceDeviation),
});

/** Copytrading (the GraphQL `copytrade` mutation). */
export const copytradeRoutes = [
  route({
    id: 'copytrade',
    surface: 'trading',
    method: 'POST',
    path: '/api/social/copytrade',
    summary:
      "Mirrors a followed trader's trade (`tradeId`, same side and outcome) through execution, as a limit " +
      "order at the trader's price moved by the tolerated deviation, under the risk caps (USD per copy and " +
      'per UTC day, open positions, categories, price deviation: each violation a 400 naming the cap). ' +
      'Answers once the order ended: the order (source copytrade), the position and the balance. `mode` live ' +
      "needs the wallet-auth token. Rate limited per user. A user's copies run one at a time, so parallel " +
      'copies cannot pass the caps together. Idempotency-Key: a retry with the same body replays the first ' +
      "copy's answer before any cap is checked; another body with the key, or the first still running, is a " +
      '409.',
    auth: 'bearer',
    params: { body: copytradeBody },
    document: CopytradeDocument,
    variables: (input) => ({ input }) as CopytradeMutationVariables,
    result: 'copytrade',
    errors: [400, 401, 404, 409, 429, 502],
    tags: ['social'],
  }),
];
