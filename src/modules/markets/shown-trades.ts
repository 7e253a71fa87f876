import type { RawSql } from '../../db/raw-sql';
import type { Logger } from '../../http/logger';
import type { PublicTrade } from '../../venues/venue.models';

/**
 * How many recorded trade keys a process remembers to skip writing them again. A market's pages
 * are read far more often than the venue adds trades, so most reads list only trades recorded
 * already and need no statement. At ~100 bytes a key this stays near 2 MB; when full it is
 * emptied (the next reads write their pages once more, which the conflict clause absorbs).
 */
const REMEMBERED_KEYS = 20_000;

/**
 * Records the trades of a venue's history that the service listed (`ShownTrade`), so every
 * `venue:venueTradeId` a market's trades page shows is a valid comment target. A market's page
 * reads the venue and stores nothing in `Trade`: storing there would swallow the trade's live
 * publication, which the trade ingest makes only for trades it newly stores.
 */
export class ShownTrades {
  private readonly recorded = new Set<string>();

  constructor(
    private readonly sql: RawSql,
    private readonly logger: Logger,
  ) {}

  /**
   * One `INSERT … ON CONFLICT DO NOTHING` for the listed trades not yet known recorded here, in
   * key order (concurrent writers of overlapping pages then take the keys in one order). A
   * failure is logged and not thrown: the page is served all the same.
   */
  async record(trades: readonly PublicTrade[]): Promise<void> {
    const fresh = new Map<string, PublicTrade>();
    for (const t of trades) {
      const key = `${t.venue}:${t.venueTradeId}`;
      if (!this.recorded.has(key)) fresh.set(key, t);
    }
    if (fresh.size === 0) return;
    const rows = [...fresh.values()].sort((a, b) => cmp(a.venue, b.venue) || cmp(a.venueTradeId, b.venueTradeId));
    try {
      await this.sql.query(
        `INSERT INTO "ShownTrade" ("venue", "venueTradeId", "venueMarketId")
         SELECT s.v::"Venue", s.t, s.m FROM unnest($1::text[], $2::text[], $3::text[]) AS s(v, t, m)
         ON CONFLICT DO NOTHING`,
        [rows.map((r) => r.venue), rows.map((r) => r.venueTradeId), rows.map((r) => r.venueMarketId)],
      );
    } catch (err) {
      this.logger.warn({ err, trades: rows.length }, 'could not record the trades a page listed');
      return;
    }
    if (this.recorded.size + fresh.size > REMEMBERED_KEYS) this.recorded.clear();
    for (const key of fresh.keys()) this.recorded.add(key);
  }
}

/** Code-unit order, the same in every process and locale. */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
