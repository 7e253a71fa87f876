/**
 * The composite screens, each through GraphQL and through its REST route, side
 * by side: the events page, market detail, portfolio overview and home. The
 * GraphQL request sends the operation a front end would (the documents in
 * `schema/operations`), with the same variables as the REST route; each pair is
 * compared in alternating rounds (`comparesTo`), and the run reports the SQL
 * statements per request of each.
 */
import { print } from 'graphql';
import { signToken } from '../../src/auth/token-signer';
import { loadConfig } from '../../src/config';
import { HomeDocument, MarketDetailDocument, PortfolioOverviewDocument } from '../../schema/generated/operations';
import { bearer } from '../support/http';
import { catalogIds } from './catalog-ids';
// Types only: scenarios.ts imports this file, so values from it are not ready yet here.
import type { BodyCheck, Scenario } from './scenarios';

const JSON_POST = { 'content-type': 'application/json' };
const VIEWER = 'bench-screen-viewer';

const viewer = async () => [
  bearer(await signToken(loadConfig(process.env).auth.user, VIEWER, { ttlSeconds: 6 * 3600 })),
];

/** A GraphQL body: the operation's text and variables, whose `{name}` strings the scenario's `prepare` fills. */
const body = (document: Parameters<typeof print>[0], variables: Record<string, unknown>) =>
  JSON.stringify({ query: print(document), variables });

/** The GraphQL answer has `data.<field>` and no errors (the generic check looks at errors). */
const hasData =
  (field: string): BodyCheck =>
  (json) =>
    (json as { data?: Record<string, unknown> }).data?.[field] ? undefined : `expected data.${field}`;

const REST_DETAIL = 'REST market detail screen';
const REST_PORTFOLIO = 'REST portfolio overview screen';
const REST_HOME = 'REST home screen';

export const SCREEN_SCENARIOS: Scenario[] = [
  {
    name: 'GraphQL market detail screen',
    method: 'POST',
    path: '/graphql',
    headers: JSON_POST,
    body: body(MarketDetailDocument, { venue: '{venue}', marketId: '{marketId}', chartPoints: 60 }),
    expectStatus: 200,
    check: hasData('market'),
    prepare: catalogIds,
    comparesTo: REST_DETAIL,
  },
  {
    name: REST_PORTFOLIO,
    method: 'GET',
    path: '/api/portfolio/overview',
    expectStatus: 200,
    headerRotation: viewer,
  },
  {
    name: 'GraphQL portfolio overview screen',
    method: 'POST',
    path: '/graphql',
    headers: JSON_POST,
    body: body(PortfolioOverviewDocument, {}),
    expectStatus: 200,
    check: hasData('portfolio'),
    headerRotation: viewer,
    comparesTo: REST_PORTFOLIO,
  },
  {
    name: REST_HOME,
    method: 'GET',
    path: '/api/home',
    expectStatus: 200,
    headerRotation: viewer,
  },
  {
    name: 'GraphQL home screen',
    method: 'POST',
    path: '/graphql',
    headers: JSON_POST,
    body: body(HomeDocument, {}),
    expectStatus: 200,
    check: hasData('home'),
    headerRotation: viewer,
    comparesTo: REST_HOME,
  },
];
