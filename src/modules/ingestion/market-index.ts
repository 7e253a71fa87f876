import type { CatalogService } from './catalog.service';

/** The market → core event map that live trades are tagged with; reloaded after every catalog sync. */
export class MarketIndex {
  private index = new Map<string, string>();

  constructor(private readonly catalog: Pick<CatalogService, 'marketIndex'>) {}

  async refresh(): Promise<void> {
    this.index = await this.catalog.marketIndex();
  }

  /** The core event of a `venue:market` key. */
  eventOf(key: string): string | undefined {
    return this.index.get(key);
  }
}
