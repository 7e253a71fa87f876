import { safeEqual } from '../../auth/constant-time';
import type { PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import type { Logger } from '../../http/logger';
import type { TradeIngestService } from '../ingestion';
import type { PublicTrade } from '../../venues/venue.types';
import { insertTrades } from './fill-store';
import { checkFill, fillToTrade, type OrderFilled } from './order-filled';
import type { OutcomeTokenIndex } from './outcome-tokens';

/** Most fills one delivery may carry (about 0.6 MB of JSON, inside the 1 MB body limit). */
export const MAX_FILL_BATCH = 1000;

/**
 * Stored trades whose announcement (derived stats, publication) may lag behind
 * the acknowledgements; beyond it a delivery waits for the backlog, so a slow
 * consumer slows the indexer down instead of growing memory.
 */
export const MAX_ANNOUNCE_BACKLOG = 20_000;

export interface FillBatchAck {
  /** Records in the delivery. */
  received: number;
  /** Records that wrote nothing: already stored (a redelivery), repeated in the batch, or on an unknown asset. */
  skipped: number;
}

/**
 * The on-chain indexer's webhook for venue_a: batches of OrderFilled records
 * for tracked wallets become public trades. The whole batch is checked before
 * anything is written (one bad record → 400, nothing stored), then written in
 * one insert that skips trades already stored: the trade id is derived from
 * the fill identity, so redeliveries, reordered or concurrent, store each fill
 * once. The delivery is acknowledged once the trades are durable; what follows
 * a write (ingestion freshness, derived trader stats, publication on the trades
 * topic) runs right after, in delivery order, through the trade ingestion.
 */
export class IndexerWebhookService {
  private announcing: Promise<unknown> = Promise.resolve();
  private backlog = 0;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly tokens: OutcomeTokenIndex,
    private readonly tradeIngest: TradeIngestService,
    private readonly secret: string | undefined,
    private readonly logger?: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** 500 when the secret is not configured, 401 when the header does not match it. */
  authenticate(presented: string | undefined): void {
    if (!this.secret) throw new AppError('internal', 'INDEXER_SHARED_SECRET is not configured');
    if (!safeEqual(presented, this.secret)) throw AppError.unauthorized('missing or invalid X-Indexer-Secret header');
  }

  async receive(fills: readonly OrderFilled[]): Promise<FillBatchAck> {
    if (fills.length > MAX_FILL_BATCH) throw AppError.badRequest('fills', `at most ${MAX_FILL_BATCH} records`);
    const nowSeconds = Math.floor(this.now() / 1000);
    const checked = fills.map((f, i) => checkFill(f, i, nowSeconds));
    const known = await this.tokens.lookup(checked.map((c) => c.tokenId));
    const byId = new Map<string, PublicTrade>();
    checked.forEach((c, i) => {
      const token = known[i];
      if (!token) return; // not a venue_a market the catalog knows: nothing to attach the trade to
      const t = fillToTrade(c, token);
      if (!byId.has(t.venueTradeId)) byId.set(t.venueTradeId, t);
    });
    const trades = [...byId.values()];
    const fresh = await insertTrades(this.prisma, trades);
    if (trades.length > 0) this.announce(trades, trades.filter((t) => fresh.has(t.venueTradeId)));
    if (this.backlog > MAX_ANNOUNCE_BACKLOG) await this.drain();
    return { received: fills.length, skipped: fills.length - fresh.size };
  }

  /** Resolves when every stored trade has been announced (shutdown, tests). */
  async drain(): Promise<void> {
    await this.announcing;
  }

  private announce(seen: PublicTrade[], stored: PublicTrade[]): void {
    this.backlog += stored.length;
    this.announcing = this.announcing
      .then(() => this.tradeIngest.announce(seen, stored))
      .catch((err: unknown) => this.logger?.error({ err }, 'announcing indexed trades failed'))
      .finally(() => {
        this.backlog -= stored.length;
      });
  }
}
