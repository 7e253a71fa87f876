import type { Prisma, PrismaClient } from '../../db/generated/client';
import type { WorldCoreEvent } from '../../venues';
import type { Venue, VenueEvent, VenueMarket } from '../../venues/venue.models';
import type { VenueClient } from '../../venues/venue-client';
import { comparisonUpserts, type ComparisonPair } from '../comparisons/comparisons.service';
import { marketWording } from '../events/events.models';

/** Where core events come from: the catalog of unified events and each venue's client. */
export interface CatalogSource {
  coreEvents: readonly WorldCoreEvent[];
  clients: Readonly<Record<Venue, VenueClient>>;
}

export interface SyncReport {
  events: number;
  markets: number;
}

/** Stable internal id of a venue market. */
export function marketKey(venue: Venue, venueMarketId: string): string {
  return `${venue}:${venueMarketId}`;
}

/**
 * Loads the venues' catalogs into the database as core events and markets.
 * Upserts by stable ids, so running it again changes nothing but prices.
 */
export class CatalogService {
  /** @param onChanged told after every sync (the app publishes a catalog-changed message). */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly onChanged: () => Promise<void> = async () => undefined,
  ) {}

  async sync(source: CatalogSource): Promise<SyncReport> {
    const venues = Object.keys(source.clients) as Venue[];
    const marketsByVenueEvent = new Map<string, VenueMarket[]>();
    const venueEvents = new Map<string, VenueEvent>();
    const listings = await Promise.all(venues.map((v) => source.clients[v].listEvents()));
    for (const events of listings) {
      for (const e of events) {
        marketsByVenueEvent.set(`${e.venue}:${e.venueEventId}`, e.markets);
        venueEvents.set(`${e.venue}:${e.venueEventId}`, e);
      }
    }

    const ops: Prisma.PrismaPromise<unknown>[] = [];
    let marketCount = 0;
    for (const ce of source.coreEvents) {
      const markets = venues.flatMap((v) => {
        const id = ce.venueEventIds[v];
        return id === undefined ? [] : (marketsByVenueEvent.get(`${v}:${id}`) ?? []);
      });
      const activity = markets.reduce((sum, m) => sum + (m.volume24h ?? 0), 0);
      const event = {
        slug: ce.slug,
        title: ce.title,
        description: ce.description,
        category: ce.category,
        sourceType: ce.sourceType,
        closeTime: ce.closeTime,
        activityScore: activity.toFixed(6),
      };
      ops.push(this.prisma.coreEvent.upsert({ where: { id: ce.id }, create: { id: ce.id, ...event }, update: event }));
      for (const m of markets) {
        marketCount += 1;
        const data = marketData(m);
        const id = marketKey(m.venue, m.venueMarketId);
        ops.push(
          this.prisma.market.upsert({
            where: { id },
            create: { id, venue: m.venue, venueMarketId: m.venueMarketId, coreEventId: ce.id, ...data },
            update: { coreEventId: ce.id, ...data },
          }),
        );
      }
    }
    // Cross-venue comparisons belong to the catalog: the matcher reads the venues' own
    // wording (never the simulator's answers) and its verdicts land in the same batch.
    const pairs: ComparisonPair[] = source.coreEvents.flatMap((ce) => {
      const a =
        ce.venueEventIds.venue_a === undefined ? undefined : venueEvents.get(`venue_a:${ce.venueEventIds.venue_a}`);
      const b =
        ce.venueEventIds.venue_b === undefined ? undefined : venueEvents.get(`venue_b:${ce.venueEventIds.venue_b}`);
      return a && b ? [{ coreEventId: ce.id, a, b }] : [];
    });
    ops.push(...comparisonUpserts(this.prisma, pairs));
    // One batch transaction: PGlite has a single connection, so no interactive callback.
    await this.prisma.$transaction(ops);
    await this.onChanged();
    return { events: source.coreEvents.length, markets: marketCount };
  }

  /** Map of venue market key → core event id, for tagging live trades. */
  async marketIndex(): Promise<Map<string, string>> {
    const rows = await this.prisma.market.findMany({ select: { venue: true, venueMarketId: true, coreEventId: true } });
    return new Map(rows.map((r) => [marketKey(r.venue, r.venueMarketId), r.coreEventId]));
  }
}

const dec = (v: number | null) => (v === null ? null : v.toFixed(6));

function marketData(m: VenueMarket) {
  return {
    ...marketWording(m),
    bestBid: dec(m.bestBid),
    bestAsk: dec(m.bestAsk),
    lastPrice: dec(m.lastPrice),
    volume: dec(m.volume),
    volume24h: dec(m.volume24h),
    openInterest: dec(m.openInterest),
    liquidity: dec(m.liquidity),
    iconUrl: m.iconUrl,
    imageUrl: m.imageUrl,
  };
}
