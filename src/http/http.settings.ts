import { isIP } from 'node:net';
import { defineSettings, DEVELOPMENT_SECRET, prose, setting } from '../settings';

/** The HTTP server and its edge: listening, timeouts, request bodies, proxies, HSTS, `/metrics`, ETags, cursors. */
export const httpSettings = defineSettings({
  name: 'http',
  title: 'HTTP server',
  variables: {
    PORT: setting.integer(0, 65535, 4000, 'listen port'),
    HOST: setting.textOr('127.0.0.1', 'listen address'),
    SHUTDOWN_GRACE_MS: setting.integer(0, 120_000, 10_000, 'how long shutdown lets open requests finish'),
    SHUTDOWN_DRAIN_MS: setting.integer(
      0,
      120_000,
      0,
      prose`on SIGTERM, how long \`/health/ready\` answers 503 (\`draining\`) while requests are still served, before
        the server stops accepting (a load balancer's time to take the process out)`,
    ),
    TRUST_PROXY: setting.text({
      meaning: prose`Express \`trust proxy\`: which proxies' \`X-Forwarded-For\` / \`X-Forwarded-Proto\` are believed,
        so the client address (per-client rate limits, stream caps) and \`req.secure\` (HSTS) are the real client's
        behind a load balancer. Off: the socket's peer is the client. Per-client caps count an IPv6 client by its
        /64 (IPv4, and IPv4-mapped IPv6, by the IPv4 address)`,
      default: 'unset: off',
      accepted: prose`\`true\`, a hop count 0–100, or comma-separated addresses, CIDRs and \`loopback\` /
        \`linklocal\` / \`uniquelocal\``,
      example: 'uniquelocal',
    }),
    HSTS: setting.choice(
      ['auto', 'on', 'off'],
      'auto',
      prose`\`Strict-Transport-Security\`: \`auto\` sends it on requests that arrived over TLS
        (\`X-Forwarded-Proto: https\` from a trusted proxy), \`on\` on every answer, \`off\` never`,
    ),
    HSTS_MAX_AGE_SECONDS: setting.integer(0, 63_072_000, 31_536_000, 'its `max-age`'),
    METRICS_TOKEN: setting.secret({
      meaning: 'when set, `/metrics` needs `Authorization: Bearer <token>` (else 401)',
      default: 'unset: open',
    }),
    HTTP_HEADERS_TIMEOUT_MS: setting.integer(
      1_000,
      600_000,
      20_000,
      "how long a client may take to send a request's headers (then 408 and the connection is closed)",
    ),
    HTTP_REQUEST_TIMEOUT_MS: setting.integer(1_000, 3_600_000, 60_000, {
      meaning: prose`how long a client may take to send a whole request (headers and body); answers, streams
        included, are not bounded by it`,
      accepted: 'integer 1000–3600000, at least `HTTP_HEADERS_TIMEOUT_MS`',
    }),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: setting.integer(
      1_000,
      600_000,
      65_000,
      "how long an idle keep-alive connection is kept (above a load balancer's idle timeout)",
    ),
    HTTP_BODY_LIMIT_BYTES: setting.integer(1_024, 104_857_600, 1_048_576, {
      meaning: prose`bytes a request body may have on any route (after gzip/deflate/br decoding): a declared
        \`Content-Length\` over it is 413 before anything is read, a chunked body is cut at it (413)
        ([security.md](security.md#request-bodies))`,
      default: '`1048576` (1 MiB)',
    }),
    JSON_MAX_DEPTH: setting.integer(
      8,
      512,
      64,
      prose`how deep a JSON body may nest (its own object or array is level 1), and GraphQL \`variables\` /
        \`extensions\` JSON in a query string: checked on the text before it is parsed, 400 beyond. At most 512, so
        what passes is far from the runtime's call-stack bound`,
    ),
    ETAG_MAX_AGE_SECONDS: setting.integer(0, 86_400, 5, '`max-age` sent with event ETags'),
    CURSOR_SECRET: setting.secret({
      meaning: 'signs market-data pagination cursors',
      default: 'dev secret (required in production)',
    }),
  },
  check(v, ctx) {
    if (v.HTTP_HEADERS_TIMEOUT_MS > v.HTTP_REQUEST_TIMEOUT_MS) {
      ctx.problem('HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS');
    }
  },
  map: (v, ctx) => ({
    port: v.PORT,
    host: v.HOST,
    shutdownGraceMs: v.SHUTDOWN_GRACE_MS,
    /** On SIGTERM: how long readiness answers 503 (draining) while requests are still served (ms). */
    shutdownDrainMs: v.SHUTDOWN_DRAIN_MS,
    etagMaxAgeSeconds: v.ETAG_MAX_AGE_SECONDS,
    cursorSecret: ctx.orDevelopment('CURSOR_SECRET', v.CURSOR_SECRET, `${DEVELOPMENT_SECRET}-cursor`),
    /**
     * The HTTP edge: Express `trust proxy` (false, a hop count, or addresses/CIDRs), when
     * Strict-Transport-Security is sent (`auto`: on requests that arrived over TLS, as `req.secure`
     * sees them) and its max-age, the bearer token of `/metrics` (unset: open), and the Node server
     * timeouts (ms).
     */
    http: {
      trustProxy: trustProxyOf(v.TRUST_PROXY, ctx.problem),
      hsts: v.HSTS,
      hstsMaxAgeSeconds: v.HSTS_MAX_AGE_SECONDS,
      metricsToken: v.METRICS_TOKEN,
      headersTimeoutMs: v.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: v.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: v.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      /**
       * Request bodies on every route: bytes at most (after content decoding; 413 beyond) and how
       * deep JSON may nest (bodies, and GraphQL `variables`/`extensions` in a query string; 400
       * beyond). See src/http/body-gate.ts.
       */
      body: { limitBytes: v.HTTP_BODY_LIMIT_BYTES, maxDepth: v.JSON_MAX_DEPTH },
    },
  }),
});

/**
 * TRUST_PROXY as Express's `trust proxy` takes it: unset, `false` or `0` = off; `true` = every hop
 * (only behind a proxy that overwrites X-Forwarded-For); an integer = that many hops; otherwise a
 * comma-separated list of addresses, CIDRs or Express's names (`loopback`, `linklocal`, `uniquelocal`).
 */
function trustProxyOf(v: string | undefined, problem: (message: string) => void): boolean | number | string[] {
  const t = v?.trim().toLowerCase();
  if (t === undefined || t === 'false' || t === '0') return false;
  if (t === 'true') return true;
  if (/^\d+$/.test(t)) {
    const hops = Number(t);
    if (hops > 100) problem('TRUST_PROXY: a hop count must be at most 100');
    return hops;
  }
  const names = new Set(['loopback', 'linklocal', 'uniquelocal']);
  const list = t
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  for (const entry of list) {
    const [address, prefix, ...rest] = entry.split('/');
    const ok =
      names.has(entry) ||
      (rest.length === 0 &&
        isIP(address) !== 0 &&
        (prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (isIP(address) === 4 ? 32 : 128))));
    if (!ok) problem(`TRUST_PROXY: "${entry}" is not a hop count, an address, a CIDR or a known name`);
  }
  return list;
}
