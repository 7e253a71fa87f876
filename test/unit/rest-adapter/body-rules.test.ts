import 'reflect-metadata';
import type { z } from 'zod';
import { copytradeRoutes } from '../../../rest-adapter/routes.copytrade';
import { executionRoutes } from '../../../rest-adapter/routes.execution';
import { checkExecuteRequest, checkSellRequest } from '../../../src/modules/execution/execute-request';
import { checkCopytradeRequest } from '../../../src/modules/social/copytrade/copytrade.inputs';

const bodyOf = (id: string) =>
  [...executionRoutes, ...copytradeRoutes].find((r) => r.id === id)!.params!.body as z.ZodType;

const order = { marketId: 'm-1', side: 'buy', outcome: 'yes', size: 1 };
const copy = { venue: 'venue_a', traderId: 't-1', tradeId: 'x-1', size: 1 };

/** The REST body schema lets the value through; the service check refuses it: one rule, one message. */
type Check = (b: Record<string, unknown>) => unknown;
const cases: [string, Record<string, unknown>, string, Check][] = [
  ['execute', { ...order, size: -1 }, 'size: must be a number of contracts from 0', checkExecuteRequest as never],
  ['execute', { ...order, marketId: ' ' }, 'marketId: must be a string of 1 to 200', checkExecuteRequest as never],
  ['execute', { ...order, eventTitle: 'x'.repeat(201) }, 'eventTitle: must be a string', checkExecuteRequest as never],
  ['execute', { ...order, limitPrice: 1.5 }, 'limitPrice: must be a number from 0 to 1', checkExecuteRequest as never],
  ['execute', { ...order, fundingAmountAtomic: '1'.repeat(79) }, 'fundingAmountAtomic:', checkExecuteRequest as never],
  ['sellPosition', { size: 0 }, 'size: must be a number of contracts above 0', checkSellRequest],
  ['copytrade', { ...copy, size: 0 }, 'size: must be a number from 0.01 to 1000000', checkCopytradeRequest],
  ['copytrade', { ...copy, traderId: '' }, 'traderId: must be a string of 1 to 100', checkCopytradeRequest],
  ['copytrade', { ...copy, maxPriceDeviation: 2 }, 'maxPriceDeviation: must be a number', checkCopytradeRequest],
];

describe('body rules are the service check’s', () => {
  it.each(cases)('%s: %j is shaped by the route and refused by the check', (id, body, message, check) => {
    expect(bodyOf(id).safeParse(body).success).toBe(true);
    expect(() => check(body)).toThrow(message);
  });

  it.each([
    ['execute', { ...order, size: '5' }, 'size', 'must be a number'],
    ['execute', { ...order, side: 'hold' }, 'side', 'must be one of buy, sell'],
    ['execute', { side: 'buy', outcome: 'yes', size: 1 }, 'marketId', 'is required'],
    ['copytrade', { ...copy, venue: null }, 'venue', 'is required'],
  ])('%s: %j is refused by its shape, naming the field', (id, body, field, message) => {
    const r = bodyOf(id).safeParse(body);
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]).toMatchObject({ path: [field], message });
  });
});
