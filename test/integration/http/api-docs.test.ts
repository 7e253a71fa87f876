import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import express from 'express';
import { apiDocsRouter } from '../../../src/http/api-docs';

/** The /docs page over HTTP, without a browser (the Chromium test renders it: test/integration/browser). */
describe('apiDocsRouter', () => {
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.use('/docs', apiDocsRouter({ specUrl: '/openapi.json' }));
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('serves the page with a nonce CSP that admits nothing from another host', async () => {
    const res = await fetch(`${base}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    const nonce = /<script nonce="([^"]+)">/.exec(html)?.[1];
    expect(nonce).toBeDefined();
    const csp = String(res.headers.get('content-security-policy'));
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}'`);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:|unsafe-inline|unsafe-eval|\*/);
    expect(html).toContain('"specUrl":"/openapi.json"');
    expect(html).toContain('validatorUrl: null');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('serves its two allowlisted assets from swagger-ui-dist, and nothing else', async () => {
    const html = await (await fetch(`${base}/docs/`)).text();
    const refs = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]);
    expect(refs.map((r) => r.replace(/\?.*$/, '')).sort()).toEqual([
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/swagger-ui.css',
    ]);
    for (const ref of refs) {
      const asset = await fetch(base + ref);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toMatch(/max-age=31536000.*immutable/);
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    }
    for (const path of ['/docs/assets/index.html', '/docs/assets/../package.json', '/docs/assets/x/swagger-ui.css']) {
      const res = await fetch(base + path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
  });
});
