import type { AppConfig } from '../../config';
import type { Logger } from '../../http/logger';
import type { RateLimiter } from '../../infra';
import { createVenueBClient, VenueBClient, type VenueOrderQuery, type VenueOrderReport } from '../../venues/live';
import { SimVenueClient } from '../../venues/sim/sim-venue.client';
import type { Venue } from '../../venues/venue.models';
import {
  VenueUnavailableError,
  type PlaceOrderRequest,
  type PlaceOrderResult,
  type VenueClient,
} from '../../venues/venue-client';

/**
 * What venue_b knows of a live order this service placed: the venue's report, `null` when the
 * venue has no such order (it never reached the venue), or `simulated` when venue_b is the
 * simulator here, which takes no live orders and keeps no record of any.
 */
export type VenueBOrderLookup = VenueOrderReport | null | 'simulated';

/**
 * Who places live venue_b orders (venue_a's go to the execution service), and
 * asks the venue about them afterwards. With the simulated venue_b, its
 * simulated client, as always (a live order never gets there: outside
 * production it runs in the paper account, in production it is refused). With
 * the live venue_b (VENUE_SOURCE / VENUE_B_SOURCE = live), the venue's signed
 * order API through the live client, signed with VENUE_B_API_KEY_ID and
 * VENUE_B_PRIVATE_KEY: the platform's own venue_b client when it signs, or
 * one of its own otherwise. Without the keys a live venue_b order cannot be
 * placed: {@link ready} is false and the order is a 503 before its stream opens.
 */
export class VenueBOrders {
  private readonly client: Pick<VenueClient, 'placeOrder'> | null;
  private readonly owned: VenueBClient | null = null;
  private readonly simulated: boolean;

  constructor(
    config: AppConfig,
    venues: Readonly<Record<Venue, VenueClient>>,
    deps: { rateLimiter: RateLimiter; logger: Logger },
  ) {
    const platform = venues.venue_b;
    this.simulated = platform instanceof SimVenueClient;
    if (config.venues.source.venue_b === 'sim') this.client = platform;
    else if (platform instanceof VenueBClient && platform.canTrade) this.client = platform;
    else if (config.venues.venueB.apiKeyId && config.venues.venueB.privateKeyPem) {
      this.owned = createVenueBClient(config.venues, deps);
      this.client = this.owned;
    } else this.client = null;
  }

  /** Whether a live venue_b order can be placed now. */
  get ready(): boolean {
    return this.client !== null;
  }

  placeOrder(order: PlaceOrderRequest): Promise<PlaceOrderResult> {
    // Refused before anything is sent: the order fails at once.
    if (!this.client)
      return Promise.reject(new VenueUnavailableError('venue_b', 'venue_b live orders are not configured'));
    return this.client.placeOrder(order);
  }

  /**
   * Asks the venue about the order placed with `q.clientOrderId` (see {@link VenueBOrderLookup}).
   * Throws when the venue cannot be asked now (unreachable, no keys, a venue client that cannot look
   * orders up): the caller asks again later.
   */
  async findOrder(q: VenueOrderQuery): Promise<VenueBOrderLookup> {
    if (this.simulated) return 'simulated';
    if (this.client instanceof VenueBClient) return this.client.findOrder(q);
    throw new Error('venue_b orders cannot be looked up with this venue client');
  }

  async close(): Promise<void> {
    await this.owned?.close();
  }
}
