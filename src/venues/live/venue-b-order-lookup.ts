import { z } from 'zod';
import type { OutcomeSide } from '../venue.models';
import type { OrderFill } from '../venue-client';
import { VenueUnavailableError } from '../venue-client';
import type { VenueHttp } from './http';
import { centsToPrice, contracts, decimalPrice } from './units';
import { venueBAuthHeaders, type VenueBCredentials } from './venue-b-signing';
import { venueBOrderFigures } from './venue-b.wire';

/**
 * Finding an order placed at venue_b by the client order id it was placed with (the service's
 * order id), for the reconciler of orders whose process stopped between placing them and
 * recording the answer. Kalshi's trade API v2 lists the member's orders (`GET /portfolio/orders`,
 * filtered by `ticker` and `min_ts`, paged by `cursor`), each with its `client_order_id`, status
 * (`resting`, `pending`, `executed`, `canceled`) and fill count; the fills of one order come from
 * `GET /portfolio/fills?order_id=…`. Both are signed like orders and spend the order budget.
 */

/** Dollar strings carry four decimals. */
const DP = 4;
/** Orders per page (the venue's maximum). */
const PAGE = 200;
/** Pages read before giving up: so many orders on one market since the order is no answer to trust. */
const MAX_PAGES = 20;
/** How much earlier than the order's own record the venue's clock may have stamped it (s). */
const CLOCK_SLACK_S = 300;

const dollars = z.string().nullish();
const listedOrder = venueBOrderFigures.extend({
  order_id: z.string().min(1),
  client_order_id: z.string().nullish(),
  ticker: z.string(),
  last_update_time: z.string().nullish(),
});
type ListedOrder = z.infer<typeof listedOrder>;
const ordersPage = z.object({ orders: z.array(listedOrder), cursor: z.string().nullish() });

const listedFill = z.object({
  order_id: z.string(),
  count: z.number().nullish(),
  count_fp: dollars,
  yes_price: z.number().nullish(),
  no_price: z.number().nullish(),
  yes_price_fixed: dollars,
  no_price_fixed: dollars,
  yes_price_dollars: dollars,
  no_price_dollars: dollars,
  created_time: z.string().nullish(),
});
type ListedFill = z.infer<typeof listedFill>;
const fillsPage = z.object({ fills: z.array(listedFill), cursor: z.string().nullish() });

/** Where to look for an order: its client order id, its market, its side, and when it was recorded here. */
export interface VenueOrderQuery {
  clientOrderId: string;
  venueMarketId: string;
  outcome: OutcomeSide;
  placedAfter: Date;
}

/** What venue_b says of an order. */
export interface VenueOrderReport {
  venueOrderId: string;
  /** The venue's status: `executed` and `canceled` are final, `resting` and `pending` may still fill. */
  status: string;
  final: boolean;
  /** Contracts filled, and the fills (prices in the order's outcome terms). */
  filled: number;
  fills: OrderFill[];
}

/**
 * The order placed with `q.clientOrderId`, or null when the venue lists none on its market since it
 * was recorded (it never reached the venue). Throws {@link VenueUnavailableError} when the venue
 * cannot be asked or the listing does not end within {@link MAX_PAGES} pages (no conclusion).
 */
export async function findVenueBOrder(
  http: VenueHttp,
  creds: VenueBCredentials,
  now: () => number,
  q: VenueOrderQuery,
): Promise<VenueOrderReport | null> {
  const headers = (wire: { method: string; path: string }) => venueBAuthHeaders(creds, wire.method, wire.path, now);
  const minTs = Math.max(0, Math.floor(q.placedAfter.getTime() / 1000) - CLOCK_SLACK_S);
  let cursor: string | undefined;
  let found: ListedOrder | undefined;
  for (let page = 0; !found; page++) {
    if (page >= MAX_PAGES) throw new VenueUnavailableError('venue_b', 'venue_b lists too many orders to find one');
    const res = await http.json(
      {
        path: '/portfolio/orders',
        query: { ticker: q.venueMarketId, min_ts: minTs, limit: PAGE, cursor },
        headers,
      },
      ordersPage,
    );
    found = res.orders.find((o) => o.client_order_id === q.clientOrderId);
    cursor = res.cursor || undefined;
    if (!found && (!cursor || res.orders.length === 0)) return null;
  }
  const final = found.status === 'executed' || found.status === 'canceled';
  const filled = found.fill_count_fp ? contracts(found.fill_count_fp) : (found.fill_count ?? 0);
  const report = { venueOrderId: found.order_id, status: found.status, final, filled };
  if (!final || filled <= 0) return { ...report, fills: [] };
  const fills = await orderFills(http, headers, found.order_id, q.outcome);
  const listed = fills.reduce((s, f) => s + f.size, 0);
  // The fills listing lags the order or was cut short: one fill at the order's average price instead.
  if (Math.abs(listed - filled) > 1e-9) return { ...report, fills: [averageFill(found, filled, now)] };
  return { ...report, fills };
}

async function orderFills(
  http: VenueHttp,
  headers: (wire: { method: string; path: string }) => Record<string, string>,
  venueOrderId: string,
  outcome: OutcomeSide,
): Promise<OrderFill[]> {
  const out: OrderFill[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await http.json(
      { path: '/portfolio/fills', query: { order_id: venueOrderId, limit: PAGE, cursor }, headers },
      fillsPage,
    );
    for (const f of res.fills) if (f.order_id === venueOrderId) out.push(toFill(f, outcome));
    cursor = res.cursor || undefined;
    if (!cursor || res.fills.length === 0) break;
  }
  return out.sort((a, b) => a.filledAt.getTime() - b.filledAt.getTime());
}

function toFill(f: ListedFill, outcome: OutcomeSide): OrderFill {
  const fixed =
    outcome === 'yes' ? (f.yes_price_dollars ?? f.yes_price_fixed) : (f.no_price_dollars ?? f.no_price_fixed);
  const cents = outcome === 'yes' ? f.yes_price : f.no_price;
  const price = fixed
    ? (decimalPrice(fixed, DP) ?? 0)
    : cents === null || cents === undefined
      ? 0
      : centsToPrice(cents);
  const at = f.created_time ? Date.parse(f.created_time) : NaN;
  return {
    price,
    size: f.count_fp ? contracts(f.count_fp) : (f.count ?? 0),
    filledAt: Number.isFinite(at) ? new Date(at) : new Date(),
  };
}

/** One fill at the order's average price, from its fill costs (as the answer to a placed order is read). */
function averageFill(o: ListedOrder, filled: number, now: () => number): OrderFill {
  const cost =
    (o.taker_fill_cost_dollars ? Number(o.taker_fill_cost_dollars) : (o.taker_fill_cost ?? 0) / 100) +
    (o.maker_fill_cost_dollars ? Number(o.maker_fill_cost_dollars) : (o.maker_fill_cost ?? 0) / 100);
  const at = o.last_update_time ? Date.parse(o.last_update_time) : NaN;
  return {
    price: decimalPrice(cost / filled, DP) ?? 0,
    size: filled,
    filledAt: new Date(Number.isFinite(at) ? at : now()),
  };
}
