import { defineSettings, prose, setting } from '../../settings';

/** The catalog job with a live venue: how often it syncs, and how similar two venue events must be to merge. */
export const ingestionSettings = defineSettings({
  name: 'ingestion',
  title: 'Catalog job',
  variables: {
    CATALOG_SYNC_MS: setting.integer(
      0,
      86_400_000,
      60_000,
      prose`how often the venues' open events are synced into core events while a venue is live (0 = at start and on
        demand only)`,
    ),
    CATALOG_MATCH_THRESHOLD: setting.number(
      0,
      1,
      0.5,
      'embedding similarity two venue events need before the comparisons matcher may merge them',
    ),
  },
  map: (v) => ({
    /**
     * The catalog job with a live venue: `syncMs` between syncs of the venues' open events (0 = only
     * at start and on demand); `matchThreshold`, the embedding similarity a cross-venue pair needs
     * before the matcher may merge it.
     */
    catalog: { syncMs: v.CATALOG_SYNC_MS, matchThreshold: v.CATALOG_MATCH_THRESHOLD },
  }),
});
