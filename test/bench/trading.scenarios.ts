/**
 * Trading scenarios: the cost preview across venues, and a simulated
 * `POST /execute` timed to its `completed` event (the stream ends there, so a
 * response's latency is the time to completed).
 *
 * - anonymous: the book walk and the stream, nothing stored;
 * - stored: bearer callers (rotating over ten traders), so each request also
 *   commits its order, fills, position, fee and balance movements in one
 *   transaction. Its server has a
 *   payment-webhook secret of its own, so the trader is funded the way users
 *   are: onramp sessions completed by signed processor events.
 */
import { randomUUID } from 'node:crypto';
import { signToken } from '../../src/auth/token-signer';
import { loadConfig } from '../../src/config';
import { bearer } from '../support/http';
import { signPaymentPayload } from '../../src/modules/webhooks/payment-signature';
// Types only: scenarios.ts imports this file, so values from it are not ready yet here.
import type { BodyCheck, Scenario } from './scenarios';

const WEBHOOK_SECRET = `bench-webhook-${randomUUID()}`;
/**
 * Requests rotate over several traders, as many users would send them: one
 * trader's orders on one market serialize on its position row by design.
 */
const RUN = randomUUID().slice(0, 8);
const TRADERS = Array.from({ length: 10 }, (_, i) => `bench-trader-${RUN}-${i}`);
/** $20,000 each: two onramp sessions at the $10,000 maximum, far more than a run spends at 1 contract per order. */
const DEPOSITS = 2;

/** A matched event and an active venue_b market of it (venue_b charges fees, so the fee path runs). */
async function tradingIds(baseUrl: string): Promise<Record<string, string>> {
  const res = await fetch(`${baseUrl}/api/events?sourceType=matched&pageSize=5`);
  const page = (await res.json()) as {
    data?: { id: string; markets: { venue: string; marketId: string; status: string }[] }[];
  };
  for (const event of page.data ?? []) {
    const market = event.markets.find((m) => m.venue === 'venue_b' && m.status === 'active');
    if (market) return { eventId: event.id, marketId: market.marketId };
  }
  throw new Error('no matched event with an active venue_b market: is the database seeded?');
}

const traderToken = (trader: string) => signToken(loadConfig(process.env).auth.user, trader, { ttlSeconds: 6 * 3600 });

/** Funds the bench traders through onramp sessions and the processor's signed completion events. */
async function fundedTraders(baseUrl: string): Promise<Record<string, string>> {
  for (const trader of TRADERS) await fund(baseUrl, trader);
  return tradingIds(baseUrl);
}

async function fund(baseUrl: string, trader: string): Promise<void> {
  const auth = { ...bearer(await traderToken(trader)), 'content-type': 'application/json' };
  for (let i = 0; i < DEPOSITS; i += 1) {
    const session = await fetch(`${baseUrl}/api/funding/onramp`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ amount: 10_000, currency: 'usd' }),
    });
    const { processorId } = (await session.json()) as { processorId?: string };
    if (!processorId) throw new Error(`could not open an onramp session for the bench trader (${session.status})`);
    const body = JSON.stringify({
      id: `evt_bench_${randomUUID()}`,
      type: 'onramp.completed',
      data: { id: processorId, amountReceived: '10000', currency: 'usd' },
    });
    const hook = await fetch(`${baseUrl}/webhooks/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'payment-signature': signPaymentPayload(WEBHOOK_SECRET, body) },
      body,
    });
    if (!hook.ok) throw new Error(`the funding webhook answered ${hook.status}`);
  }
}

/** The stream ended with `completed` (a filled order). */
const completed: BodyCheck = (json) => {
  const messages = json as { event: string; data: unknown }[];
  if (!Array.isArray(messages) || messages.length === 0) return 'expected an event stream';
  const end = messages[messages.length - 1];
  return end.event === 'completed'
    ? undefined
    : `the stream ended with ${end.event}: ${JSON.stringify(end.data).slice(0, 300)}`;
};

const markets: BodyCheck = (json) => {
  const list = (json as { markets?: unknown[] }).markets;
  return Array.isArray(list) && list.length > 0 ? undefined : 'expected priced markets: is the database seeded?';
};

const ORDER = JSON.stringify({ marketId: '{marketId}', side: 'buy', outcome: 'yes', size: 1 });
const JSON_POST = { 'content-type': 'application/json', accept: 'text/event-stream' };

export const TRADING_SCENARIOS: Scenario[] = [
  {
    name: 'REST GET /cost-rundown (10 contracts, every market of a matched event)',
    method: 'GET',
    path: '/cost-rundown?core_id={eventId}&size=10',
    expectStatus: 200,
    check: markets,
    prepare: tradingIds,
  },
  {
    name: 'REST POST /execute, anonymous simulation (time to completed)',
    method: 'POST',
    path: '/execute',
    headers: JSON_POST,
    body: ORDER,
    expectStatus: 200,
    check: completed,
    prepare: tradingIds,
  },
  {
    name: 'REST POST /execute, stored simulation (time to completed)',
    method: 'POST',
    path: '/execute',
    headers: JSON_POST,
    body: ORDER,
    expectStatus: 200,
    check: completed,
    prepare: fundedTraders,
    headerRotation: async () => Promise.all(TRADERS.map(async (t) => bearer(await traderToken(t)))),
    // Throughput, not the per-user limit of stored simulations, is what this measures.
    serverEnv: { PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET, SIMULATION_RATE_LIMIT: '1000000' },
  },
];
