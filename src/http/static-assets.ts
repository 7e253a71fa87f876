import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';

/**
 * The browser pages this server ships (GraphiQL at /graphql, the OpenAPI page at /docs) load
 * their scripts and styles from installed npm packages, served from a fixed allowlist: no CDN,
 * nothing outside the list, year-long immutable caching keyed by the package version.
 */

/** One servable file: where it is on disk, its content type and its package's version (cache key). */
export interface StaticAsset {
  file: string;
  contentType: string;
  version: string;
}

/** `[public name, package, path inside the package, content type]`. */
export type AssetEntry = [name: string, pkg: string, file: string, contentType: string];

export const JS = 'text/javascript; charset=utf-8';
export const CSS = 'text/css; charset=utf-8';
export const SOURCE_MAP = 'application/json; charset=utf-8';

/** Folder of an installed package, found through its `package.json` (bundles sit outside `exports`). */
export function packageDir(name: string): { dir: string; version: string } {
  const manifestPath = require.resolve(`${name}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string };
  return { dir: path.dirname(manifestPath), version: manifest.version };
}

/** Resolves the allowlist at start; a missing file stops the boot with its name. */
export function resolveAssets(page: string, entries: readonly AssetEntry[]): Map<string, StaticAsset> {
  const assets = new Map<string, StaticAsset>();
  for (const [name, pkg, relative, contentType] of entries) {
    const { dir, version } = packageDir(pkg);
    const file = path.join(dir, relative);
    if (!existsSync(file)) throw new Error(`${page} asset missing: ${name} (expected at ${file})`);
    assets.set(name, { file, contentType, version });
  }
  return assets;
}

/**
 * Route label for the app's request metrics/logs (`res.locals.route`, see server.ts);
 * bounded, so arbitrary asset paths cannot grow the label set.
 */
export function label(req: Request, res: Response, suffix: string): void {
  res.locals.route = `${req.baseUrl.toLowerCase()}${suffix}`;
}

/**
 * Mounts `GET <prefix>/:name` for the allowlisted assets on `router`; every other path below
 * `prefix` (unknown names, nested paths, traversal attempts, other methods) is a plain 404.
 * Returns the URL of an asset as the page references it.
 */
export function serveAssets(
  router: express.Router,
  prefix: string,
  assets: ReadonlyMap<string, StaticAsset>,
): (req: Request, name: string) => string {
  const notFound = (req: Request, res: Response): void => {
    label(req, res, `${prefix}/:name`);
    res.status(404).type('text/plain').send('Not found');
  };
  router.get(`${prefix}/:name`, (req: Request, res: Response, next: NextFunction) => {
    const name = req.params.name;
    const asset = typeof name === 'string' ? assets.get(name) : undefined;
    if (!asset) {
      notFound(req, res);
      return;
    }
    label(req, res, `${prefix}/:name`);
    res.set({ 'Content-Type': asset.contentType, 'X-Content-Type-Options': 'nosniff' });
    // The path is fixed by the allowlist; 'allow' keeps dot folders on it (e.g. pnpm's .pnpm) working.
    res.sendFile(asset.file, { maxAge: '365d', immutable: true, dotfiles: 'allow' }, (err) => {
      if (err && !res.headersSent) next(err);
    });
  });
  router.use(prefix, notFound);
  return (req, name) => `${req.baseUrl}${prefix}/${name}?v=${encodeURIComponent(assets.get(name)?.version ?? '')}`;
}

/**
 * The headers of a page rendered per request: never cached, and a content security policy that
 * admits same-origin scripts, styles and requests plus the one inline bootstrap carrying `nonce`.
 */
export function pageHeaders(nonce: string): Record<string, string> {
  return {
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
  };
}

/** HTML-escapes text for an attribute value or a text node. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** JSON that is safe to embed inside a `<script>` element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
