import { Counter, Gauge, type Registry } from 'prom-client';
import type { Venue } from '../../venues/venue.models';
import type { MarketUpdate } from './market-streams.models';
import type { PublisherMetrics } from './market-publisher';

/** The venue streams' metrics, on the app's registry. */
export interface StreamMetrics extends PublisherMetrics {
  /** An event of a venue's stream (by kind: book, levels, quote, tick, trade, stale, trade-gap). */
  event(venue: Venue, kind: string): void;
  /** A frame the stream could not use, or an error the venue sent. */
  problem(venue: Venue, text: string): void;
  /** A book made live again, from the venue's stream or an HTTP read. */
  resynced(venue: Venue, via: 'stream' | 'http'): void;
  state(venue: Venue, up: boolean): void;
}

export function createStreamMetrics(registry: Registry, onFailure: (err: unknown) => void): StreamMetrics {
  const events = new Counter({
    name: 'venue_stream_events_total',
    help: "Events of the venues' streams, by venue and kind.",
    labelNames: ['venue', 'kind'] as const,
    registers: [registry],
  });
  const problems = new Counter({
    name: 'venue_stream_problems_total',
    help: 'Frames a venue stream could not use (malformed, unknown shape) and errors the venue sent.',
    labelNames: ['venue'] as const,
    registers: [registry],
  });
  const resyncs = new Counter({
    name: 'venue_stream_resyncs_total',
    help: 'Books made live again after a stream lost them, by where the book came from (stream, http).',
    labelNames: ['venue', 'via'] as const,
    registers: [registry],
  });
  const up = new Gauge({
    name: 'venue_stream_up',
    help: 'Whether a venue stream is connected (1) in the process holding the streams.',
    labelNames: ['venue'] as const,
    registers: [registry],
  });
  const updates = new Counter({
    name: 'market_updates_published_total',
    help: 'Market updates published, by venue and kind (snapshot, delta, stale).',
    labelNames: ['venue', 'kind'] as const,
    registers: [registry],
  });
  const failures = new Counter({
    name: 'market_updates_failed_total',
    help: 'Market updates or shared book copies that could not be written.',
    registers: [registry],
  });
  return {
    event: (venue, kind) => events.inc({ venue, kind }),
    problem: (venue) => problems.inc({ venue }),
    resynced: (venue, via) => resyncs.inc({ venue, via }),
    state: (venue, isUp) => up.set({ venue }, isUp ? 1 : 0),
    published: (venue: Venue, kind: MarketUpdate['kind']) => updates.inc({ venue, kind }),
    failed: (err) => {
      failures.inc();
      onFailure(err);
    },
  };
}
