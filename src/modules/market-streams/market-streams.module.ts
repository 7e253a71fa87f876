import { defineModule, onTopic, provide } from '../../kernel';
import {
  createVenueStream,
  isLiveVenueClient,
  SimVenueStream,
  VENUES,
  type Venue,
  type VenueStream,
} from '../../venues';
import { CATALOG_CHANGED_TOPIC } from '../events/events.models';
import { TRADES_TOPIC, type TradeEvent } from '../trades/trades.models';
import { MarketBookStore } from './book-store';
import { MarketFollowers } from './market-followers';
import { MarketKeeper } from './market-keeper';
import { MarketPublisher } from './market-publisher';
import {
  MARKET_DEMAND_TOPIC,
  MARKET_UPDATES_TOPIC,
  VENUE_STREAMS_TOPIC,
  type MarketDemand,
  type VenueStreamView,
} from './market-streams.models';
import { MarketUpdatesResolver } from './market-updates.resolver';
import { createStreamMetrics } from './stream-metrics';
import { VenueStreamStatus } from './stream-status';

/**
 * The market streams (docs/venues.md#what-is-streamed): the venues' websockets (or the simulated
 * world's stream) in one process, each followed market's book kept there and each change published
 * once on the market's topic; in every process, the books without a venue call
 * ({@link MarketBookStore}) and where each venue's live data comes from ({@link VenueStreamStatus});
 * and the clients' live books (`marketUpdates`, `/stream/markets`), each market followed once per
 * process however many clients watch it ({@link MarketFollowers}).
 * The streams run under a lease, started by the ingestion module (its task `venue streams`), which
 * stores the venues' trades.
 */
export const marketStreamsModule = defineModule({
  name: 'market-streams',
  resolvers: [MarketUpdatesResolver],
  services: [
    provide(VenueStreamStatus, ({ infra, logger, now, config, venueSources }) => {
      const venues = Object.fromEntries(
        VENUES.map((v) => [v, { source: venueSources[v], streamed: streamed(v, config.venues, venueSources) }]),
      ) as Record<Venue, { source: 'live' | 'sim'; streamed: boolean }>;
      return new VenueStreamStatus({ pubsub: infra.pubsub, logger, now, venues, pollMs: config.venues.tradesPollMs });
    }),
    provide(
      MarketBookStore,
      ({ infra }) => new MarketBookStore(infra.pubsub, infra.kind === 'redis' ? infra.cache : null),
    ),
    provide(MarketFollowers, ({ infra, get }) => new MarketFollowers(infra.pubsub, get(MarketBookStore))),
    provide(MarketKeeper, ({ db, infra, config, logger, metrics, venues, venueSources, world, get }) => {
      const streamMetrics = createStreamMetrics(metrics.registry, (err) =>
        logger.debug({ err }, 'a market update or book copy could not be written'),
      );
      const shared = infra.kind === 'redis' ? infra.cache : null;
      return new MarketKeeper({
        prisma: db.prisma,
        store: get(MarketBookStore),
        publisher: new MarketPublisher(infra.pubsub, shared, streamMetrics, Date.now, infra.kind === 'memory'),
        status: get(VenueStreamStatus),
        metrics: streamMetrics,
        logger,
        venues,
        sources: venueSources,
        streams: () => {
          const out: Partial<Record<Venue, VenueStream>> = {};
          for (const v of VENUES) {
            if (!streamed(v, config.venues, venueSources)) continue;
            out[v] =
              venueSources[v] === 'sim' ? new SimVenueStream(v, world.clients[v]) : createVenueStream(v, config.venues);
          }
          return out;
        },
        settings: {
          markets: config.venues.streams.markets,
          resyncMs: config.venues.streams.resyncMs,
          pollMs: config.venues.tradesPollMs,
        },
        recentTrades: (venue, since) => {
          const client = venues[venue];
          return isLiveVenueClient(client) ? client.fetchRecentTrades(since) : null;
        },
      });
    }),
  ],
  tasks: [
    {
      // Per process: a live venue's trade polling pauses while its stream carries every trade.
      name: 'stream status',
      start: ({ venues, get }) => {
        const status = get(VenueStreamStatus);
        for (const v of VENUES) {
          const client = venues[v];
          if (isLiveVenueClient(client)) client.gateTradePolling(() => status.tradesStreamed(v));
        }
      },
      stop: async ({ get }) => {
        await get(MarketFollowers).close();
        get(MarketBookStore).close();
      },
    },
  ],
  topics: {
    publishes: [MARKET_UPDATES_TOPIC, VENUE_STREAMS_TOPIC, MARKET_DEMAND_TOPIC],
    subscribes: [
      onTopic(VENUE_STREAMS_TOPIC, ({ get }, view: VenueStreamView) => get(VenueStreamStatus).receive(view)),
      onTopic(MARKET_DEMAND_TOPIC, ({ get }, d: MarketDemand) => get(MarketKeeper).demand(d)),
      onTopic(CATALOG_CHANGED_TOPIC, ({ get }) => get(MarketKeeper).catalogChanged()),
      onTopic(TRADES_TOPIC, ({ get }, t: TradeEvent) => get(MarketKeeper).onTrade(t)),
    ],
  },
});

/**
 * Whether a venue has a stream: with `VENUE_STREAMS=on`, a simulated venue (the world's) and a
 * venue whose configured source is live (its websocket); a live client handed in by a test has none.
 */
function streamed(
  venue: Venue,
  config: { streams: { enabled: boolean }; source: Record<Venue, 'sim' | 'live'> },
  sources: Readonly<Record<Venue, 'sim' | 'live'>>,
): boolean {
  if (!config.streams.enabled) return false;
  return sources[venue] === 'sim' || config.source[venue] === 'live';
}
