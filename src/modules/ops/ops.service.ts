import type { PrismaClient } from '../../db/generated/client';
import { VENUES, type Venue } from '../../venues/venue.models';
import type { VenueStreamView } from '../market-streams/market-streams.models';

/** What the process knows about itself without asking the database. */
export interface RuntimeSnapshot {
  startedAt: Date;
  version: string;
  database: 'pglite' | 'postgres';
  infra: 'redis' | 'memory';
  openStreams: () => number;
  simTradeRate: number;
  shuttingDown: () => boolean;
  /** Where each venue's live data comes from now (its stream, or polling). */
  venueStreams: () => VenueStreamView[];
}

export interface HealthView {
  status: 'ok' | 'shutting_down';
  version: string;
  startedAt: Date;
  uptimeSeconds: number;
  database: string;
  infra: string;
  openStreams: number;
  simTradeRate: number;
  memoryRssMb: number;
  venueStreams: VenueStreamView[];
}

export type FreshnessStatus = 'ok' | 'stale' | 'idle';

export interface VenuePipelineView {
  venue: Venue;
  lastTradeAt: Date | null;
  lastSeenAt: Date | null;
  lagSeconds: number | null;
  tradesSeen: number;
  status: FreshnessStatus;
}

export interface PipelineView {
  status: FreshnessStatus;
  checkedAt: Date;
  events: number;
  markets: number;
  venues: VenuePipelineView[];
}

/** Trades older than this make a venue's pipeline stale while live trades are expected. */
const STALE_AFTER_SECONDS = 120;

export class OpsService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly runtime: RuntimeSnapshot,
    private readonly now: () => number = Date.now,
  ) {}

  /** In-process snapshot: never touches the database, so it answers while it is down. */
  health(): HealthView {
    return {
      status: this.runtime.shuttingDown() ? 'shutting_down' : 'ok',
      version: this.runtime.version,
      startedAt: this.runtime.startedAt,
      uptimeSeconds: Math.round((this.now() - this.runtime.startedAt.getTime()) / 1000),
      database: this.runtime.database,
      infra: this.runtime.infra,
      openStreams: this.runtime.openStreams(),
      simTradeRate: this.runtime.simTradeRate,
      memoryRssMb: Math.round(process.memoryUsage.rss() / 1048576),
      venueStreams: this.runtime.venueStreams(),
    };
  }

  /** Freshness of ingestion per venue, from the database. */
  async pipeline(): Promise<PipelineView> {
    const [states, events, markets] = await this.prisma.$transaction([
      this.prisma.ingestState.findMany(),
      this.prisma.coreEvent.count(),
      this.prisma.market.count(),
    ]);
    const now = this.now();
    const expectLive = this.runtime.simTradeRate > 0;
    const venues = VENUES.map((venue): VenuePipelineView => {
      const s = states.find((x) => x.venue === venue);
      const lag = s?.lastTradeAt ? Math.max(0, Math.round((now - s.lastTradeAt.getTime()) / 1000)) : null;
      const status: FreshnessStatus =
        lag === null
          ? expectLive
            ? 'stale'
            : 'idle'
          : lag <= STALE_AFTER_SECONDS
            ? 'ok'
            : expectLive
              ? 'stale'
              : 'idle';
      return {
        venue,
        lastTradeAt: s?.lastTradeAt ?? null,
        lastSeenAt: s?.lastSeenAt ?? null,
        lagSeconds: lag,
        tradesSeen: Number(s?.tradesSeen ?? 0),
        status,
      };
    });
    const status: FreshnessStatus = venues.some((v) => v.status === 'stale')
      ? 'stale'
      : venues.every((v) => v.status === 'idle')
        ? 'idle'
        : 'ok';
    return { status, checkedAt: new Date(now), events, markets, venues };
  }
}
