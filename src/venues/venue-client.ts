import {
  Side,
  OutcomeSide,
  PublicTrade,
  Venue,
  VenueEvent,
  OrderBook,
  PriceHistoryQuery,
  PriceHistory,
  HoldersResult,
} from './venue.models';

/**
 * The contract every venue client fulfils, whatever is behind it (the simulated
 * world, or a venue's HTTP API). Prices are on the 0..1 scale (1 = one dollar);
 * sizes are contracts. Domain code talks to venues only through this interface.
 */
export interface PlaceOrderRequest {
  venueMarketId: string;
  side: Side;
  outcome: OutcomeSide;
  size: number;
  orderType: 'market' | 'limit';
  limitPrice?: number;
  clientOrderId: string;
}

export interface OrderFill {
  price: number;
  size: number;
  filledAt: Date;
}

/**
 * The venue's answer to an order: `filled` / `partially_filled` with its fills; `cancelled`: the venue
 * took the order and cancelled it without a fill (immediate-or-cancel, nothing fillable within the
 * limit); `rejected`: the venue (or the client, before sending) refused it.
 */
export interface PlaceOrderResult {
  venueOrderId: string;
  status: 'filled' | 'partially_filled' | 'cancelled' | 'rejected';
  fills: OrderFill[];
  reason?: string;
}

export type TradeListener = (trade: PublicTrade) => void;

/**
 * Which budget of a live venue's rate limit a call spends: `read` (every read, the default) or
 * `order` (a live order's own calls: its placement and its quote's book read). Reads exhausting
 * their budget never delay or fail a call on the order budget. The simulated venues have no budget.
 */
export type VenueBudget = 'read' | 'order';

/** How a read is made: on which {@link VenueBudget}. */
export interface VenueReadOptions {
  budget?: VenueBudget;
}

export interface VenueClient {
  readonly venue: Venue;
  /** The venue's whole catalog of events with their markets. */
  listEvents(): Promise<VenueEvent[]>;
  getOrderBook(venueMarketId: string, depth?: number, options?: VenueReadOptions): Promise<OrderBook>;
  getPriceHistory(venueMarketId: string, query: PriceHistoryQuery): Promise<PriceHistory>;
  /** Newest first. */
  getPublicTrades(venueMarketId: string, page: { limit: number; offset: number }): Promise<PublicTrade[]>;
  getHolders(venueMarketId: string, limit: number): Promise<HoldersResult>;
  placeOrder(order: PlaceOrderRequest): Promise<PlaceOrderResult>;
  /** Live public trades as the venue reports them; returns an unsubscribe function. */
  onTrade(listener: TradeListener): () => void;
}

/** Errors a venue client throws when the venue cannot answer. */
export class VenueUnavailableError extends Error {
  constructor(
    readonly venue: Venue,
    message: string,
  ) {
    super(message);
    this.name = 'VenueUnavailableError';
  }
}

/**
 * A call that acts at the venue (placing an order) failed after it may have reached the venue: the
 * request was written and then timed out or lost its connection, the venue answered 5xx, or its 2xx
 * answer could not be read. The venue may have acted on it, so the caller must neither take it as
 * not done (an order keeps its hold) nor send it again: it asks the venue later what became of it.
 * A failure before the request was written (connection refused, DNS, the circuit breaker or the rate
 * limit refusing) or a refusal the venue answered (4xx) is a plain {@link VenueUnavailableError}.
 */
export class VenueOutcomeUnknownError extends VenueUnavailableError {
  constructor(venue: Venue, message: string) {
    super(venue, message);
    this.name = 'VenueOutcomeUnknownError';
  }
}

export class VenueMarketNotFoundError extends Error {
  constructor(
    readonly venue: Venue,
    readonly venueMarketId: string,
  ) {
    super(`${venue} market ${venueMarketId} not found`);
    this.name = 'VenueMarketNotFoundError';
  }
}
