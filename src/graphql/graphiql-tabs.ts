import { Kind, print, type DefinitionNode, type DocumentNode } from 'graphql';
import {
  EventHistoryDocument,
  GetEventDocument,
  HomeDocument,
  ListEventsDocument,
  MarketDetailDocument,
  PortfolioOverviewDocument,
  TradesDocument,
} from '../../schema/generated/operations';

/** A GraphiQL tab as its `defaultTabs` prop takes it (GraphiQL names the tab after the operation). */
export interface GraphiqlTab {
  query: string;
  variables?: string;
  headers?: string;
}

/** Where the bearer goes: the headers editor of a tab that needs a signed-in user. */
export const BEARER_HEADERS_HINT = '{\n  "Authorization": "Bearer <token>"\n}';

const HOW_TO_TOKEN =
  '# Signed-in operations need a bearer: in the Headers editor below, replace <token> with one from\n' +
  '#   npm run -s token -- --sub demo-user\n';

/**
 * One document holding the operations of `docs` and each fragment they spread, once: the
 * generated documents of `schema/operations` carry their fragments, and two of them can share one.
 */
function merged(...docs: DocumentNode[]): string {
  const seen = new Set<string>();
  const definitions: DefinitionNode[] = [];
  for (const def of docs.flatMap((d) => d.definitions)) {
    const key = 'name' in def && def.name ? `${def.kind}:${def.name.value}` : undefined;
    if (key !== undefined && seen.has(key)) continue;
    if (key !== undefined) seen.add(key);
    definitions.push(def);
  }
  return print({ kind: Kind.DOCUMENT, definitions });
}

const json = (value: Record<string, unknown>): string => JSON.stringify(value, null, 2);

/**
 * The tabs GraphiQL opens with on a first visit: the composite screens of `schema/operations`, the
 * same documents the REST adapter runs, so what a reader tries here is what the API serves. Tabs
 * that need an id say where to find one; tabs that need a user carry the bearer hint in their headers.
 */
export function graphiqlTabs(): GraphiqlTab[] {
  return [
    {
      query:
        '# Events page: the catalog, a page at a time. Ctrl-Enter runs the operation; Docs lists the schema.\n' +
        merged(ListEventsDocument),
      variables: json({ page: 1, pageSize: 10 }),
    },
    {
      query:
        '# Event with history: pick GetEvent or EventHistory with the run button. Paste an event id from\n' +
        '# the Events page tab into the variables (GetEvent also takes its slug).\n' +
        merged(GetEventDocument, EventHistoryDocument),
      variables: json({ ref: '<event id or slug>', eventId: '<event id>', interval: '1h' }),
    },
    {
      query:
        '# Market detail: one market with its event, book, chart and recent trades. A market id comes\n' +
        '# with each market of the Events page tab (venue and marketId).\n' +
        merged(MarketDetailDocument),
      variables: json({ venue: 'venue_a', marketId: '<market id>', chartPoints: 50 }),
    },
    {
      query:
        '# Portfolio overview: balances, open positions, summary and recent activity.\n' +
        HOW_TO_TOKEN +
        merged(PortfolioOverviewDocument),
      variables: json({ activityLimit: 10, mode: 'simulation' }),
      headers: BEARER_HEADERS_HINT,
    },
    {
      query:
        "# Home: trending events and live activity; with a bearer, also the caller's portfolio summary.\n" +
        merged(HomeDocument),
    },
    {
      query:
        '# Trades subscription: live trades over server-sent events (graphql-sse at /graphql/stream).\n' +
        '# Stop it with the run button. Narrow it with venue and marketId.\n' +
        merged(TradesDocument),
    },
  ];
}
