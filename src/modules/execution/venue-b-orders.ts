import type { AppConfig } from '../../config';
import type { Logger } from '../../http/logger';
import type { RateLimiter } from '../../infra';
import { createVenueBClient, VenueBClient } from '../../venues/live';
import type { Venue } from '../../venues/venue.models';
import type { PlaceOrderRequest, PlaceOrderResult, VenueClient } from '../../venues/venue-client';

/**
 * Who places live venue_b orders (venue_a's go to the execution service).
 * With the simulated venue_b, its simulated client, as always. With the live
 * venue_b (VENUE_SOURCE / VENUE_B_SOURCE = live), the venue's signed order API
 * through the live client, signed with VENUE_B_API_KEY_ID and
 * VENUE_B_PRIVATE_KEY: the platform's own venue_b client when it signs, or
 * one of its own otherwise. Without the keys a live venue_b order cannot be
 * placed: {@link ready} is false and the order is a 503 before its stream opens.
 */
export class VenueBOrders {
  private readonly client: Pick<VenueClient, 'placeOrder'> | null;
  private readonly owned: VenueBClient | null = null;

  constructor(
    config: AppConfig,
    venues: Readonly<Record<Venue, VenueClient>>,
    deps: { rateLimiter: RateLimiter; logger: Logger },
  ) {
    const platform = venues.venue_b;
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
    if (!this.client) return Promise.reject(new Error('venue_b live orders are not configured'));
    return this.client.placeOrder(order);
  }

  async close(): Promise<void> {
    await this.owned?.close();
  }
}
