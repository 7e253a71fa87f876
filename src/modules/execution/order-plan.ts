import type { Order } from '../../db/generated/client';
import type { SqlClient } from '../../db/raw-sql';
import { microsToNumber } from '../../money';
import type { VenueClient } from '../../venues/venue-client';
import type { Venue } from '../../venues/venue.models';
import type { NewNotification } from '../notifications';
import type { OrderState } from '../portfolio/portfolio.limits';
import type { MarketBooks } from '../routing/market-books';
import { allInOf, type FeeSchedule } from '../routing/order-book.math';
import type { CheckedRequest } from './execute-request';
import type {
  ExecutionServiceClient,
  ExecutionServiceOrder,
  ExecutionServiceOrderRequest,
} from './execution-service.client';
import { fillTotals, type OrderDraft, type OrderView, type RecordedFill } from './execution.models';
import type { TradeRecorder } from './trade-recorder';
import type { VenueBOrders } from './venue-b-orders';

/** Everything decided about an order before its stream opens. */
export interface OrderPlan {
  draft: OrderDraft;
  /** Anonymous simulations persist nothing. */
  anonymous: boolean;
  request: CheckedRequest;
  marketTitle: string;
  walletToken?: string;
  /** Set when the order is refused before anything else (size 0). */
  rejectReason?: string;
}

/**
 * What a live order did before its stream opened: its row and, on venue_a,
 * the submit body and the service's first answer, or (no answer: the submit
 * may have reached the service) why there is none.
 */
export interface LiveStart {
  order: Order;
  submit?: ExecutionServiceOrderRequest;
  first?: ExecutionServiceOrder;
  submitProblem?: string;
}

export interface RunnerDeps {
  books: MarketBooks;
  venues: Readonly<Record<Venue, VenueClient>>;
  recorder: TradeRecorder;
  client: ExecutionServiceClient | null;
  /** Who places live venue_b orders (default: the venue_b client), and asks the venue about them later. */
  venueBOrders?: Pick<VenueBOrders, 'placeOrder' | 'ready' | 'findOrder'>;
  fees: FeeSchedule;
  pollMs: number;
  waitMs: number;
  /** Stores notifications: alone (never failing the caller), or in the transaction `db` (see `Notify`). */
  notify: (items: NewNotification[], db?: SqlClient) => Promise<unknown>;
  now: () => number;
}

const num = microsToNumber;

/** The order as its plan and `fills` make it, at `at` (an anonymous order has no row to show). */
export function draftOrderView(
  plan: OrderPlan,
  state: OrderState,
  fills: readonly RecordedFill[],
  at: Date,
): OrderView {
  const d = plan.draft;
  const { filled, notional, fees, avg } = fillTotals(fills);
  return {
    id: d.id,
    state,
    venue: d.venue,
    marketId: d.venueMarketId,
    coreId: d.coreEventId,
    outcome: d.outcome,
    side: d.side,
    orderType: d.orderType,
    mode: d.mode,
    limitPrice: d.limitPriceMicros === null ? null : num(d.limitPriceMicros),
    requestedSize: num(d.requestedSizeMicros),
    filledSize: num(filled),
    avgPrice: avg === null ? null : num(avg),
    notional: num(notional),
    fees: num(fees),
    total: num(allInOf(d.side, notional, fees)),
    failureReason: null,
    externalOrderId: null,
    positionId: d.positionId,
    source: d.source,
    persisted: !plan.anonymous,
    createdAt: at,
    updatedAt: at,
  };
}
