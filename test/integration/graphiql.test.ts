import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import vm from 'node:vm';
import express from 'express';
import { Kind, parse, validate, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { graphiqlRouter } from '../../src/graphql/graphiql';
import { BEARER_HEADERS_HINT, graphiqlTabs } from '../../src/graphql/graphiql-tabs';
import { getSchema } from '../../src/graphql/schema';
import { renderGraphiqlPage } from '../../src/graphql/graphiql.html';
import { waitFor } from '../support/wait';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Plain `http.request`, so paths such as `/../` reach the server unnormalised. */
function request(
  port: number,
  method: string,
  rawPath: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: rawPath, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('graphiqlRouter', () => {
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    const app = express();
    app.use('/graphql', graphiqlRouter({ endpoint: '/graphql', subscriptionsEndpoint: '/graphql/stream' }));
    // Stand-in for Apollo: anything the router passes on ends up here.
    app.use('/graphql', (_req, res) => {
      res.json({ fallthrough: true });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('serves the IDE page to a browser navigation, with a strict CSP', async () => {
    const res = await request(port, 'GET', '/graphql', { accept: BROWSER_ACCEPT });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.vary).toMatch(/accept/i);

    const html = res.body.toString('utf8');
    const nonce = /<script nonce="([^"]+)">/.exec(html)?.[1];
    expect(nonce).toBeDefined();

    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}'`);
    expect(csp).toContain(`style-src 'self' 'nonce-${nonce}'`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/https?:|unsafe-inline|unsafe-eval|\*/);

    expect(html).toContain('GraphiQL.createFetcher');
    expect(html).toContain('ReactDOM.createRoot');
    expect(html).toContain('React.createElement(GraphiQL');
    expect(html).toContain('"endpoint":"/graphql"');
    expect(html).toContain('"subscriptionsEndpoint":"/graphql/stream"');
    // Every inline script carries the nonce; nothing points at another host.
    expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toEqual([`<script nonce="${nonce}">`]);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('preloads the example screens as tabs in the page config', async () => {
    const res = await request(port, 'GET', '/graphql', { accept: BROWSER_ACCEPT });
    const html = res.body.toString('utf8');
    const config = /window\.__GRAPHIQL_CONFIG__ = (.*);\n/.exec(html)?.[1];
    expect(JSON.parse(config ?? 'null')).toMatchObject({ tabs: graphiqlTabs() });
  });

  it('uses a fresh nonce per request', async () => {
    const a = await request(port, 'GET', '/graphql/', { accept: 'text/html' });
    const b = await request(port, 'GET', '/graphql/', { accept: 'text/html' });
    expect(a.headers['content-security-policy']).not.toEqual(b.headers['content-security-policy']);
  });

  it('references only same-origin assets under the mount, all of which load', async () => {
    const res = await request(port, 'GET', '/graphql', { accept: BROWSER_ACCEPT });
    const html = res.body.toString('utf8');
    const refs = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)]
      .map((m) => m[1])
      .filter((ref) => ref !== 'data:,'); // the empty favicon, so the browser asks for none
    expect(refs).toHaveLength(4);
    for (const ref of refs) {
      expect(ref).toMatch(/^\/graphql\/graphiql-assets\/[\w.-]+\?v=[\w.-]+$/);
      const asset = await request(port, 'GET', ref);
      expect(asset.status).toBe(200);
      expect(asset.headers['content-type']).toMatch(/^(text\/javascript|text\/css)/);
      expect(asset.headers['cache-control']).toMatch(/max-age=31536000.*immutable/);
      expect(asset.headers['x-content-type-options']).toBe('nosniff');
      expect(asset.body.length).toBeGreaterThan(5_000);
    }
    const kinds = refs.map((r) => r.replace(/\?.*$/, '').split('/').pop());
    expect(kinds.sort()).toEqual([
      'graphiql.min.css',
      'graphiql.min.js',
      'react-dom.production.min.js',
      'react.production.min.js',
    ]);
  });

  it('falls through for JSON clients, GraphQL GETs and non-GET requests', async () => {
    const cases: [string, string, Record<string, string>][] = [
      ['GET', '/graphql', { accept: 'application/json' }],
      ['GET', '/graphql', {}],
      ['GET', '/graphql', { accept: '*/*' }],
      ['GET', '/graphql?query=%7B__typename%7D', { accept: BROWSER_ACCEPT }],
      ['POST', '/graphql', { accept: BROWSER_ACCEPT }],
      ['GET', '/graphql/stream', { accept: BROWSER_ACCEPT }],
    ];
    for (const [method, rawPath, headers] of cases) {
      const res = await request(port, method, rawPath, headers);
      expect({ method, rawPath, status: res.status }).toEqual({ method, rawPath, status: 200 });
      expect(JSON.parse(res.body.toString('utf8'))).toEqual({ fallthrough: true });
    }
  });

  it('returns 404 for unknown assets and traversal attempts', async () => {
    const paths = [
      '/graphql/graphiql-assets/nope.js',
      '/graphql/graphiql-assets/',
      '/graphql/graphiql-assets/package.json',
      '/graphql/graphiql-assets/../../package.json',
      '/graphql/graphiql-assets/..%2F..%2Fpackage.json',
      '/graphql/graphiql-assets/%2e%2e%2fgraphiql.min.js',
      '/graphql/graphiql-assets/umd/react.production.min.js',
      '/graphql/graphiql-assets/graphiql.min.js/extra',
      '/graphql/graphiql-assets/toString',
      '/graphql/graphiql-assets/__proto__',
    ];
    for (const rawPath of paths) {
      const res = await request(port, 'GET', rawPath);
      expect({ rawPath, status: res.status }).toEqual({ rawPath, status: 404 });
      expect(res.body.toString('utf8')).toBe('Not found');
    }
  });
});

describe('GraphiQL example tabs', () => {
  const tabs = graphiqlTabs();
  const operations = (query: string) =>
    parse(query)
      .definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)
      .map((d) => `${d.operation} ${d.name?.value}`);

  it('are the screens of schema/operations, in order', () => {
    expect(tabs.map((t) => operations(t.query))).toEqual([
      ['query ListEvents'],
      ['query GetEvent', 'query EventHistory'],
      ['query MarketDetail'],
      ['query PortfolioOverview'],
      ['query Home'],
      ['subscription Trades'],
    ]);
  });

  it('each validate against the schema, fragments included, with JSON variables', async () => {
    const schema = await getSchema();
    for (const tab of tabs) {
      expect({ query: tab.query.slice(0, 60), errors: validate(schema, parse(tab.query)) }).toEqual({
        query: tab.query.slice(0, 60),
        errors: [],
      });
      if (tab.variables !== undefined) expect(typeof JSON.parse(tab.variables)).toBe('object');
    }
  });

  it('show where the bearer goes on the tab that needs a user, and only there', () => {
    expect(JSON.parse(BEARER_HEADERS_HINT)).toEqual({ Authorization: 'Bearer <token>' });
    const withHeaders = tabs.filter((t) => t.headers !== undefined);
    expect(withHeaders.map((t) => operations(t.query))).toEqual([['query PortfolioOverview']]);
    expect(withHeaders[0].headers).toBe(BEARER_HEADERS_HINT);
    expect(withHeaders[0].query).toContain('npm run -s token -- --sub');
  });
});

/**
 * Runs the page's inline bootstrap against the real React / ReactDOM / GraphiQL UMD
 * bundles inside a `vm` context. There is no DOM here: `document` is a permissive
 * stub that only has to survive the bundles' load-time feature checks, and
 * `ReactDOM.createRoot` is replaced to capture the element the page renders. This
 * checks the globals contract and the fetcher (HTTP + graphql-sse) end to end; the
 * visual rendering is left to a real browser.
 */
describe('GraphiQL page bootstrap (real UMD bundles, stub DOM)', () => {
  type Sink = { next(v: unknown): void; error(e: unknown): void; complete(): void };
  type Fetcher = (
    params: { query: string; operationName?: string },
    opts: { headers?: Record<string, string>; documentAST: DocumentNode },
  ) => unknown;
  interface Seen {
    url: string;
    contentType?: string;
    accept?: string;
    authorization?: string;
    body: string;
  }

  let server: http.Server;
  let base: string;
  const seen: Seen[] = [];
  const openStreams = new Set<http.ServerResponse>();
  let rendered: { type: unknown; props: { fetcher: Fetcher; defaultQuery: string } } | undefined;
  let graphiqlGlobal: unknown;

  function permissiveStub(): unknown {
    const target = function stub(): void {};
    return new Proxy(target, {
      get: (_t, key) => {
        if (key === Symbol.toPrimitive) return () => '';
        if (typeof key === 'symbol' || key === 'then') return undefined;
        if (key === 'length') return 0;
        return permissiveStub();
      },
      apply: () => permissiveStub(),
      construct: () => permissiveStub() as object,
      has: () => true,
    });
  }

  function fetcher(): Fetcher {
    if (!rendered) throw new Error('the page rendered nothing');
    return rendered.props.fetcher;
  }

  function requestTo(url: string): Seen {
    const req = seen.find((s) => s.url === url);
    if (!req) throw new Error(`no request to ${url}`);
    return req;
  }

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        seen.push({
          url: req.url ?? '',
          contentType: req.headers['content-type'],
          accept: req.headers.accept,
          authorization: req.headers.authorization,
          body,
        });
        if (req.url === '/graphql') {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ data: { ok: true } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        openStreams.add(res);
        res.on('close', () => openStreams.delete(res));
        res.write(':\n\n');
        // CRLF line ends with a CRLF split across writes, and a multi-line data field.
        res.write('event: next\r');
        setTimeout(() => {
          res.write('\ndata: {"data":{"tick":1}}\r\n\r\nevent: next\ndata: {"data":\ndata: {"tick":2}}\n\n');
          if (!body.includes('forever')) res.end('event: complete\ndata:\n\n');
        }, 20);
      });
    });
    server.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const ctx: Record<string, unknown> = {
      console,
      setTimeout,
      clearTimeout,
      queueMicrotask,
      URL,
      TextEncoder,
      TextDecoder,
      TextDecoderStream,
      ReadableStream,
      AbortController,
      Headers,
      Response,
      navigator: { userAgent: 'node', platform: 'linux', vendor: '' },
      document: permissiveStub(),
      localStorage: { getItem: () => null, setItem: () => undefined, removeItem: () => undefined },
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      matchMedia: () => ({ matches: false, addEventListener: () => undefined, removeEventListener: () => undefined }),
      fetch: (url: string, init?: RequestInit) => fetch(new URL(url, base), init),
    };
    ctx.window = ctx;
    ctx.self = ctx;
    vm.createContext(ctx);
    const nodeModules = path.dirname(path.dirname(require.resolve('graphiql/package.json')));
    for (const file of [
      'react/umd/react.production.min.js',
      'react-dom/umd/react-dom.production.min.js',
      'graphiql/graphiql.min.js',
    ]) {
      vm.runInContext(readFileSync(path.join(nodeModules, file), 'utf8'), ctx, { filename: file });
    }
    graphiqlGlobal = ctx.GraphiQL;
    const reactDom = ctx.ReactDOM as Record<string, unknown>;
    expect(typeof reactDom.createRoot).toBe('function');
    ctx.ReactDOM = {
      ...reactDom,
      createRoot: () => ({ render: (el: typeof rendered) => (rendered = el) }),
    };

    const html = renderGraphiqlPage({
      nonce: 'test-nonce',
      endpoint: '/graphql',
      subscriptionsEndpoint: '/graphql/stream',
      defaultQuery: '{ __typename }',
      assets: { css: '', react: '', reactDom: '', graphiql: '' },
    });
    const inline = /<script nonce="test-nonce">([\s\S]*?)<\/script>/.exec(html)?.[1];
    if (!inline) throw new Error('inline bootstrap not found');
    vm.runInContext(inline, ctx, { filename: 'bootstrap.js' });
    expect(ctx.__webpack_nonce__).toBe('test-nonce');
  });

  afterAll(async () => {
    for (const res of openStreams) res.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('renders the GraphiQL component with a fetcher and the default query', () => {
    expect(typeof graphiqlGlobal).toBe('function');
    expect(rendered?.type).toBe(graphiqlGlobal);
    expect(typeof rendered?.props.fetcher).toBe('function');
    expect(rendered?.props.defaultQuery).toBe('{ __typename }');
  });

  it('posts queries as JSON to the endpoint, with editor headers', async () => {
    const params = { query: 'query Q { ok }', operationName: 'Q' };
    let result = await fetcher()(params, {
      headers: { authorization: 'Bearer q' },
      documentAST: parse(params.query),
    });
    // GraphiQL's default fetcher supports incremental delivery and answers with an async iterable.
    if (result && typeof result === 'object' && Symbol.asyncIterator in result) {
      for await (const first of result as AsyncIterable<unknown>) {
        result = first;
        break;
      }
    }
    expect(result).toEqual({ data: { ok: true } });
    const req = requestTo('/graphql');
    expect(req).toMatchObject({ contentType: 'application/json', authorization: 'Bearer q' });
    expect(JSON.parse(req.body)).toMatchObject(params);
  });

  it('streams subscriptions from the graphql-sse endpoint until complete', async () => {
    const params = { query: 'subscription S { tick }', operationName: 'S' };
    const observable = fetcher()(params, {
      headers: { authorization: 'Bearer s' },
      documentAST: parse(params.query),
    }) as { subscribe(sink: Sink): { unsubscribe(): void } };
    const values: unknown[] = [];
    await new Promise<void>((resolve, reject) =>
      observable.subscribe({ next: (v) => values.push(v), error: reject, complete: resolve }),
    );
    expect(values).toEqual([{ data: { tick: 1 } }, { data: { tick: 2 } }]);
    const req = requestTo('/graphql/stream');
    expect(req).toMatchObject({
      contentType: 'application/json',
      accept: 'text/event-stream',
      authorization: 'Bearer s',
    });
    expect(JSON.parse(req.body)).toEqual(params);
  });

  it('closes the stream when the subscription is stopped', async () => {
    const params = { query: 'subscription forever { tick }', operationName: 'forever' };
    const observable = fetcher()(params, { documentAST: parse(params.query) }) as {
      subscribe(sink: Sink): { unsubscribe(): void };
    };
    const values: unknown[] = [];
    let ended = false;
    const sub = observable.subscribe({
      next: (v) => values.push(v),
      error: () => (ended = true),
      complete: () => (ended = true),
    });
    await waitFor(() => values.length === 2, 'both values', 2_000);
    expect(openStreams.size).toBe(1);
    sub.unsubscribe();
    await waitFor(() => openStreams.size === 0, 'every stream closed', 2_000);
    expect(ended).toBe(false);
  });
});
