/**
 * The GraphiQL page: a static HTML shell plus one inline bootstrap script, both
 * rendered per request so the bootstrap can carry the CSP nonce. Everything it
 * loads comes from the same origin (see `graphiql.ts` for the asset routes).
 */
import { escapeHtml, scriptJson } from '../http/static-assets';
import type { GraphiqlTab } from './graphiql-tabs';

/** What the page needs to know; all URLs are same-origin absolute paths. */
export interface GraphiqlPageOptions {
  /** Per-request CSP nonce for the inline `<script>` and `<style>`. */
  nonce: string;
  /** URLs of the allowlisted assets, in load order. */
  assets: { css: string; react: string; reactDom: string; graphiql: string };
  /** GraphQL endpoint the fetcher posts JSON to, e.g. `/graphql`. */
  endpoint: string;
  /** graphql-sse endpoint for subscriptions, e.g. `/graphql/stream`. */
  subscriptionsEndpoint?: string;
  /** Query of a tab the reader opens. */
  defaultQuery: string;
  /** Tabs open on a first visit (none: one tab with `defaultQuery`). */
  tabs?: GraphiqlTab[];
}

/**
 * Browser-side bootstrap (plain ES2020, no build step). Queries and mutations go
 * through GraphiQL's own fetcher (POST, `content-type: application/json`, which
 * satisfies Apollo's CSRF prevention). Subscriptions, when an endpoint is given,
 * use graphql-sse's "distinct connections" mode: POST with
 * `accept: text/event-stream`, then `next` / `complete` events.
 */
const BOOTSTRAP = String.raw`
(function () {
  'use strict';
  var config = window.__GRAPHIQL_CONFIG__;
  // react-remove-scroll (used by GraphiQL dialogs) tags its injected <style> with this.
  window.__webpack_nonce__ = config.nonce;

  var httpFetcher = GraphiQL.createFetcher({ url: config.endpoint });

  function operationType(params, opts) {
    var doc = opts && opts.documentAST;
    if (!doc) return undefined;
    var ops = doc.definitions.filter(function (d) { return d.kind === 'OperationDefinition'; });
    var op = params.operationName
      ? ops.find(function (d) { return d.name && d.name.value === params.operationName; })
      : ops[0];
    return op && op.operation;
  }

  function parseEvent(block) {
    var event = 'message';
    var data = [];
    block.split('\n').forEach(function (line) {
      if (!line || line[0] === ':') return;
      var i = line.indexOf(':');
      var field = i === -1 ? line : line.slice(0, i);
      var value = i === -1 ? '' : line.slice(i + 1);
      if (value[0] === ' ') value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    });
    return { event: event, data: data.join('\n') };
  }

  function sseFetcher(params, opts) {
    return {
      subscribe: function (sink) {
        var controller = new AbortController();
        var done = false;
        function finish(err) {
          if (done) return;
          done = true;
          controller.abort();
          if (err) sink.error(err); else sink.complete();
        }
        async function run() {
          var headers = Object.assign({}, opts && opts.headers, {
            'content-type': 'application/json',
            accept: 'text/event-stream'
          });
          var res = await fetch(config.subscriptionsEndpoint, {
            method: 'POST',
            headers: headers,
            body: JSON.stringify(params),
            credentials: 'same-origin',
            signal: controller.signal
          });
          var type = res.headers.get('content-type') || '';
          if (type.indexOf('text/event-stream') === -1 || !res.body) {
            var text = await res.text();
            var body;
            try { body = JSON.parse(text); } catch (e) {
              body = { errors: [{ message: 'HTTP ' + res.status + ': ' + text.slice(0, 500) }] };
            }
            if (!done) sink.next(body);
            return finish();
          }
          var reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          var buffer = '';
          while (!done) {
            var chunk = await reader.read();
            if (chunk.done) break;
            // Normalise line ends, keeping a trailing lone CR until its LF arrives.
            var blocks = (buffer + chunk.value).replace(/\r\n|\r(?!$)/g, '\n').split('\n\n');
            buffer = blocks.pop();
            for (var i = 0; i < blocks.length && !done; i++) {
              var ev = parseEvent(blocks[i]);
              if (ev.event === 'next') sink.next(JSON.parse(ev.data));
              else if (ev.event === 'complete') return finish();
            }
          }
          finish();
        }
        run().catch(function (err) { if (!done) finish(err); });
        return { unsubscribe: function () { done = true; controller.abort(); } };
      }
    };
  }

  function fetcher(params, opts) {
    if (config.subscriptionsEndpoint && operationType(params, opts) === 'subscription') {
      return sseFetcher(params, opts);
    }
    return httpFetcher(params, opts);
  }

  // GraphiQL 4.1 opens the first default tab with its query but takes the variables and headers
  // editors' text from storage alone: put the tab's there on a first visit (no stored tabs yet).
  if (config.tabs && config.tabs.length > 0) {
    try {
      if (localStorage.getItem('graphiql:tabState') === null) {
        localStorage.setItem('graphiql:variables', config.tabs[0].variables || '');
        localStorage.setItem('graphiql:headers', config.tabs[0].headers || '');
      }
    } catch (e) {
      // Storage off (private mode): the first tab opens with empty variables.
    }
  }

  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, {
    fetcher: fetcher,
    defaultQuery: config.defaultQuery,
    defaultTabs: config.tabs || undefined,
    // Tabs that need a user carry the bearer hint in their headers editor.
    defaultEditorToolsVisibility: true
  }));
})();
`;

/** Renders the complete GraphiQL HTML document. */
export function renderGraphiqlPage(opts: GraphiqlPageOptions): string {
  const nonce = escapeHtml(opts.nonce);
  const config = {
    nonce: opts.nonce,
    endpoint: opts.endpoint,
    subscriptionsEndpoint: opts.subscriptionsEndpoint ?? null,
    defaultQuery: opts.defaultQuery,
    tabs: opts.tabs ?? null,
  };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <title>GraphiQL</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="${escapeHtml(opts.assets.css)}" />
    <style nonce="${nonce}">
      html, body, #graphiql { height: 100%; margin: 0; }
      #graphiql-loading { font-family: system-ui, sans-serif; padding: 1rem; color: #555; }
    </style>
  </head>
  <body>
    <div id="graphiql"><p id="graphiql-loading">Loading GraphiQL&hellip;</p></div>
    <script src="${escapeHtml(opts.assets.react)}"></script>
    <script src="${escapeHtml(opts.assets.reactDom)}"></script>
    <script src="${escapeHtml(opts.assets.graphiql)}"></script>
    <script nonce="${nonce}">
window.__GRAPHIQL_CONFIG__ = ${scriptJson(config)};
${BOOTSTRAP}
    </script>
  </body>
</html>
`;
}
