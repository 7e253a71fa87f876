import { randomBytes } from 'node:crypto';
import express from 'express';
import type { Request, Response, NextFunction } from 'express';
import {
  CSS,
  JS,
  SOURCE_MAP,
  label,
  pageHeaders,
  resolveAssets,
  serveAssets,
  type AssetEntry,
} from '../http/static-assets';
import { renderGraphiqlPage } from './graphiql.html';
import { graphiqlTabs, type GraphiqlTab } from './graphiql-tabs';

/** Options for {@link graphiqlRouter}. */
export interface GraphiqlRouterOptions {
  /** GraphQL endpoint the IDE posts to, e.g. `/graphql`. */
  endpoint: string;
  /** graphql-sse endpoint used for subscription operations, e.g. `/graphql/stream`. */
  subscriptionsEndpoint?: string;
  /** Query shown in a fresh editor tab; a small events query by default. */
  defaultQuery?: string;
  /** Tabs open on a first visit; the example screens of `schema/operations` by default. */
  tabs?: GraphiqlTab[];
}

/** Sub-path (under the router's mount) that serves the allowlisted assets. */
export const GRAPHIQL_ASSETS_PATH = '/graphiql-assets';

/** Query shown in a fresh editor tab when none is configured. */
export const DEFAULT_GRAPHIQL_QUERY = `# Prediction-market aggregator GraphQL API.
# Ctrl-Enter runs the query; the Docs panel lists the schema.
query Events {
  events(page: 1, pageSize: 10) {
    data {
      id
      slug
      title
      category
      markets {
        venue
        title
        status
        yesPrice
      }
    }
    page
    pageSize
    total
  }
}
`;

/** The fixed allowlist: public file name -> file in an installed package. Nothing else is ever served. */
const ASSETS: readonly AssetEntry[] = [
  ['graphiql.min.js', 'graphiql', 'graphiql.min.js', JS],
  ['graphiql.min.css', 'graphiql', 'graphiql.min.css', CSS],
  // graphiql.min.js ends with `sourceMappingURL=index.umd.js.map`; only dev tools fetch it.
  ['index.umd.js.map', 'graphiql', 'graphiql.min.js.map', SOURCE_MAP],
  ['react.production.min.js', 'react', 'umd/react.production.min.js', JS],
  ['react-dom.production.min.js', 'react-dom', 'umd/react-dom.production.min.js', JS],
];

/** True when the request is a browser navigation that wants the IDE rather than a GraphQL response. */
function wantsIde(req: Request): boolean {
  if (req.query.query !== undefined) return false; // GraphQL-over-HTTP GET
  return req.accepts(['application/json', 'text/html']) === 'text/html';
}

/**
 * Serves an offline GraphiQL IDE. Mount it on the GraphQL path before Apollo:
 * `app.use('/graphql', graphiqlRouter({ endpoint: '/graphql' }))`.
 *
 * - `GET <mount>/` answers the HTML page only when the client prefers `text/html`
 *   and sends no `query` parameter; every other request falls through (`next()`).
 * - `GET <mount>/graphiql-assets/<name>` serves a fixed allowlist of files from
 *   node_modules (GraphiQL UMD bundle and CSS, React / ReactDOM UMD builds) with
 *   year-long immutable caching; anything else under that path is a 404.
 * - The page sends a strict CSP: same-origin scripts/styles plus one nonce'd
 *   inline bootstrap; nothing is loaded from another host.
 */
export function graphiqlRouter(opts: GraphiqlRouterOptions): express.Router {
  const assets = resolveAssets('GraphiQL', ASSETS);
  const defaultQuery = opts.defaultQuery ?? DEFAULT_GRAPHIQL_QUERY;
  const tabs = opts.tabs ?? graphiqlTabs();
  const router = express.Router();
  const assetUrl = serveAssets(router, GRAPHIQL_ASSETS_PATH, assets);

  router.get('/', (req: Request, res: Response, next: NextFunction) => {
    res.vary('Accept');
    if (!wantsIde(req)) {
      next();
      return;
    }
    label(req, res, ' (graphiql)');
    const nonce = randomBytes(16).toString('base64');
    const html = renderGraphiqlPage({
      nonce,
      endpoint: opts.endpoint,
      subscriptionsEndpoint: opts.subscriptionsEndpoint,
      defaultQuery,
      tabs,
      assets: {
        css: assetUrl(req, 'graphiql.min.css'),
        react: assetUrl(req, 'react.production.min.js'),
        reactDom: assetUrl(req, 'react-dom.production.min.js'),
        graphiql: assetUrl(req, 'graphiql.min.js'),
      },
    });
    res.set(pageHeaders(nonce));
    res.send(html);
  });
  return router;
}
