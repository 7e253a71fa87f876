/** Input bounds of the market screens (the interface document's Limits section and ours). */
export const MARKETS_LIMITS = {
  marketId: { max: 200 },
  holders: { min: 1, max: 200, default: 50 },
  /** Public trades per page; 500 so a screen can show a long tape in one call. */
  trades: { min: 1, max: 500, default: 50 },
  /** Deepest public-trade offset served (venues stop scanning beyond it). */
  tradesOffset: { min: 0, max: 10_000, default: 0 },
  bookDepth: { min: 1, max: 50, default: 10 },
  /** Books one `orderBooks` query asks for at most (each is a venue read when no stream holds it). */
  orderBooks: { max: 50 },
  /** Largest holders shown in the detail screen's summary. */
  summaryTopHolders: 5,
} as const;
