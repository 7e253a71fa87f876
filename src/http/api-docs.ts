import { randomBytes } from 'node:crypto';
import express from 'express';
import type { Request, Response } from 'express';
import {
  CSS,
  JS,
  escapeHtml,
  label,
  pageHeaders,
  resolveAssets,
  scriptJson,
  serveAssets,
  type AssetEntry,
} from './static-assets';

/** Sub-path (under the router's mount) that serves the page's allowlisted assets. */
export const API_DOCS_ASSETS_PATH = '/assets';

/** Swagger UI's browser bundle and styles, from the installed `swagger-ui-dist`. */
const ASSETS: readonly AssetEntry[] = [
  ['swagger-ui-bundle.js', 'swagger-ui-dist', 'swagger-ui-bundle.js', JS],
  ['swagger-ui.css', 'swagger-ui-dist', 'swagger-ui.css', CSS],
];

/**
 * Browser-side bootstrap. `validatorUrl: null` keeps Swagger UI from sending the document to its
 * public validator; try-it-out calls the server that serves the page (the document declares no
 * `servers`), with the credentials entered under Authorize (bearer JWT, market-data key).
 */
const BOOTSTRAP = String.raw`
(function () {
  'use strict';
  var config = window.__API_DOCS_CONFIG__;
  window.ui = SwaggerUIBundle({
    url: config.specUrl,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    displayOperationId: true,
    displayRequestDuration: true,
    filter: true,
    tryItOutEnabled: false,
    withCredentials: false
  });
})();
`;

function renderPage(nonce: string, specUrl: string, assets: { css: string; js: string }): string {
  const n = escapeHtml(nonce);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <title>API reference</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="${escapeHtml(assets.css)}" />
    <style nonce="${n}">
      body { margin: 0; }
    </style>
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${escapeHtml(assets.js)}"></script>
    <script nonce="${n}">
window.__API_DOCS_CONFIG__ = ${scriptJson({ specUrl })};
${BOOTSTRAP}
    </script>
  </body>
</html>
`;
}

/**
 * Serves the OpenAPI reference (Swagger UI) of `specUrl` at the mount, e.g.
 * `app.use('/docs', apiDocsRouter({ specUrl: '/openapi.json' }))`: the page, rendered per request
 * with a fresh CSP nonce, and Swagger UI's files from node_modules under `/assets/`. The same
 * content security policy as GraphiQL's: same-origin scripts, styles and requests only.
 */
export function apiDocsRouter(opts: { specUrl: string }): express.Router {
  const assets = resolveAssets('API docs', ASSETS);
  const router = express.Router({ strict: false });
  const assetUrl = serveAssets(router, API_DOCS_ASSETS_PATH, assets);
  router.get('/', (req: Request, res: Response) => {
    label(req, res, '');
    const nonce = randomBytes(16).toString('base64');
    res.set(pageHeaders(nonce));
    res.send(
      renderPage(nonce, opts.specUrl, {
        css: assetUrl(req, 'swagger-ui.css'),
        js: assetUrl(req, 'swagger-ui-bundle.js'),
      }),
    );
  });
  return router;
}
