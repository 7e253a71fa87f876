import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import type { Request, Response, NextFunction } from 'express';
import { renderGraphiqlPage } from './graphiql.html';

/** Options for {@link graphiqlRouter}. */
export interface GraphiqlRouterOptions {
  /** GraphQL endpoint the IDE posts to, e.g. `/graphql`. */
  endpoint: string;
  /** graphql-sse endpoint used for subscription operations, e.g. `/graphql/stream`. */
  subscriptionsEndpoint?: string;
  /** Query shown in a fresh editor tab; a small events query by default. */
  defaultQuery?: string;
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

interface Asset {
  file: string;
  contentType: string;
  version: string;
}

/** Folder of an installed package, found through its `package.json` (bundles sit outside `exports`). */
function packageDir(name: string): { dir: string; version: string } {
  const manifestPath = require.resolve(`${name}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string };
  return { dir: path.dirname(manifestPath), version: manifest.version };
}

/** The fixed allowlist: public file name -> file on disk. Nothing else is ever served. */
function resolveAssets(): Map<string, Asset> {
  const graphiql = packageDir('graphiql');
  const react = packageDir('react');
  const reactDom = packageDir('react-dom');
  const js = 'text/javascript; charset=utf-8';
  const entries: [string, string, string, { version: string }][] = [
    ['graphiql.min.js', path.join(graphiql.dir, 'graphiql.min.js'), js, graphiql],
    ['graphiql.min.css', path.join(graphiql.dir, 'graphiql.min.css'), 'text/css; charset=utf-8', graphiql],
    // graphiql.min.js ends with `sourceMappingURL=index.umd.js.map`; only dev tools fetch it.
    ['index.umd.js.map', path.join(graphiql.dir, 'graphiql.min.js.map'), 'application/json; charset=utf-8', graphiql],
    ['react.production.min.js', path.join(react.dir, 'umd', 'react.production.min.js'), js, react],
    ['react-dom.production.min.js', path.join(reactDom.dir, 'umd', 'react-dom.production.min.js'), js, reactDom],
  ];
  const assets = new Map<string, Asset>();
  for (const [name, file, contentType, pkg] of entries) {
    if (!existsSync(file)) throw new Error(`GraphiQL asset missing: ${name} (expected at ${file})`);
    assets.set(name, { file, contentType, version: pkg.version });
  }
  return assets;
}

/** True when the request is a browser navigation that wants the IDE rather than a GraphQL response. */
function wantsIde(req: Request): boolean {
  if (req.query.query !== undefined) return false; // GraphQL-over-HTTP GET
  return req.accepts(['application/json', 'text/html']) === 'text/html';
}

/**
 * Route label for the app's request metrics/logs (`res.locals.route`, see server.ts);
 * bounded, so arbitrary asset paths cannot grow the label set.
 */
function label(req: Request, res: Response, suffix: string): void {
  res.locals.route = `${req.baseUrl.toLowerCase()}${suffix}`;
}

function notFound(req: Request, res: Response): void {
  label(req, res, `${GRAPHIQL_ASSETS_PATH}/:name`);
  res.status(404).type('text/plain').send('Not found');
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
  const assets = resolveAssets();
  const defaultQuery = opts.defaultQuery ?? DEFAULT_GRAPHIQL_QUERY;
  const router = express.Router();

  router.get('/', (req: Request, res: Response, next: NextFunction) => {
    res.vary('Accept');
    if (!wantsIde(req)) {
      next();
      return;
    }
    label(req, res, ' (graphiql)');
    const nonce = randomBytes(16).toString('base64');
    const assetUrl = (name: string): string =>
      `${req.baseUrl}${GRAPHIQL_ASSETS_PATH}/${name}?v=${encodeURIComponent(assets.get(name)?.version ?? '')}`;
    const html = renderGraphiqlPage({
      nonce,
      endpoint: opts.endpoint,
      subscriptionsEndpoint: opts.subscriptionsEndpoint,
      defaultQuery,
      assets: {
        css: assetUrl('graphiql.min.css'),
        react: assetUrl('react.production.min.js'),
        reactDom: assetUrl('react-dom.production.min.js'),
        graphiql: assetUrl('graphiql.min.js'),
      },
    });
    res.set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': [
        "default-src 'none'",
        `script-src 'self' 'nonce-${nonce}'`,
        `style-src 'self' 'nonce-${nonce}'`,
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join('; '),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
    res.send(html);
  });

  router.get(`${GRAPHIQL_ASSETS_PATH}/:name`, (req: Request, res: Response, next: NextFunction) => {
    const name = req.params.name;
    const asset = typeof name === 'string' ? assets.get(name) : undefined;
    if (!asset) {
      notFound(req, res);
      return;
    }
    label(req, res, `${GRAPHIQL_ASSETS_PATH}/:name`);
    res.set({ 'Content-Type': asset.contentType, 'X-Content-Type-Options': 'nosniff' });
    // The path is fixed by the allowlist; 'allow' keeps dot folders on it (e.g. pnpm's .pnpm) working.
    res.sendFile(asset.file, { maxAge: '365d', immutable: true, dotfiles: 'allow' }, (err) => {
      if (err && !res.headersSent) next(err);
    });
  });
  // Anything else below the asset prefix (nested paths, traversal attempts, other methods).
  router.use(GRAPHIQL_ASSETS_PATH, notFound);

  return router;
}
