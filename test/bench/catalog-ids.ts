/**
 * A busy event listed on both venues, and its first venue_a market: what the
 * chart and market-screen scenarios load.
 */
export async function catalogIds(baseUrl: string): Promise<Record<string, string>> {
  const res = await fetch(`${baseUrl}/api/events?sourceType=matched&pageSize=1`);
  const page = (await res.json()) as {
    data?: { id: string; markets: { venue: string; marketId: string; status: string }[] }[];
  };
  const event = page.data?.[0];
  const market = event?.markets.find((m) => m.venue === 'venue_a' && m.status === 'active') ?? event?.markets[0];
  if (!event || !market) throw new Error('no matched event with markets: is the database seeded?');
  return { eventId: event.id, venue: market.venue, marketId: market.marketId };
}
