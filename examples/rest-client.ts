/**
 * A typed REST client: openapi-fetch over the types openapi-typescript generates from
 * `schema/openapi.json` (`examples/generated/openapi.ts`, rewritten by `npm run codegen`). Paths,
 * parameters and response bodies are checked by the compiler: a misspelled query parameter or
 * field does not compile.
 *
 *   node -r ./scripts/register.js examples/rest-client.ts [BASE_URL]
 */
import createClient from 'openapi-fetch';
import type { paths } from './generated/openapi';

/** A client of the trading surface at `baseUrl`; `token`, when given, is sent as the bearer. */
export function restClient(baseUrl: string, token?: string) {
  return createClient<paths>({
    baseUrl,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
}

/** A failed answer as an Error carrying the API's `{ error, message }` body. */
function failure(status: number, body: unknown): Error {
  const { error, message } = (body ?? {}) as { error?: string; message?: string };
  return new Error(`HTTP ${status} ${error ?? ''}: ${message ?? ''}`.trim());
}

/** The first page of events, then the detail screen of the first market of the first event. */
export async function eventsAndMarketDetail(baseUrl: string, pageSize = 5) {
  const client = restClient(baseUrl);
  const events = await client.GET('/api/events', { params: { query: { page: 1, pageSize } } });
  if (events.data === undefined) throw failure(events.response.status, events.error);

  const market = events.data.data.flatMap((event) => event.markets)[0];
  if (market === undefined) throw new Error('no market in the first page of events');
  const detail = await client.GET('/api/markets/{venue}/{marketId}/detail', {
    params: { path: { venue: market.venue, marketId: market.marketId }, query: { chartPoints: 24 } },
  });
  if (detail.data === undefined) throw failure(detail.response.status, detail.error);
  return { events: events.data, market: detail.data };
}

if (require.main === module) {
  const baseUrl = process.argv[2] ?? 'http://127.0.0.1:4000';
  eventsAndMarketDetail(baseUrl).then(
    ({ events, market }) => {
      process.stdout.write(`${events.total} events; page 1: ${events.data.map((e) => e.title).join(' | ')}\n`);
      process.stdout.write(`${market.venue}/${market.marketId}: ${market.title}, YES ${market.yesPrice ?? '-'}\n`);
    },
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    },
  );
}
