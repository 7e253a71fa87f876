import { defineSettings, prose, setting } from '../../settings';

/** Markets: how often a client may resolve fields that read a live venue. */
export const marketsSettings = defineSettings({
  name: 'markets',
  title: 'Markets',
  variables: {
    VENUE_READ_RATE_LIMIT: setting.integer(
      1,
      1_000_000,
      600,
      prose`while a venue is live: resolutions of venue-reading fields (books, trades, holders, charts, event
        history, cost rundown, routes, portfolio marks) per minute per client (the user, else the address); beyond
        it those fields fail \`rate_limited\` (REST 429 with \`Retry-After\`). Not applied to simulated venues`,
    ),
  },
  map: (v) => ({
    /** Per client, while a venue is live: resolutions of fields that read a venue (books, trades, charts…). */
    limits: { venueReadsPerMinute: v.VENUE_READ_RATE_LIMIT },
  }),
});
