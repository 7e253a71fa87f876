import documented from '../../../rest-adapter/documented-endpoints.json';
import { bySpecificity, expressPath } from '../../../rest-adapter/express-router';
import { ROUTES } from '../../../rest-adapter/routes';

interface Documented {
  surface: 'trading' | 'market-data';
  section: string;
  method: string;
  path: string;
  auth: string;
  statuses: number[];
}

const DOCS = documented as Documented[];
const key = (surface: string, method: string, path: string) => `${surface} ${method} ${path}`;
const routed = new Map(ROUTES.map((r) => [key(r.surface, r.method, r.path), r]));
/** Routes the interface documents do not list yet, each added by a later issue (see docs/). */
const UNDOCUMENTED_BUT_ROUTED = new Set<string>([
  'resetPaperAccount', // paper trading: the paper account's reset
  'walletChallenge', // wallet ownership: the challenge to sign
  'verifyWallet', // wallet ownership: the signed challenge
  'catalogDecisions', // real venues: the catalog job's decisions (docs/events-and-charts.md)
  'mergeCoreEvents', // real venues: admin override, merge two core events
  'splitVenueEvent', // real venues: admin override, split a venue event out
  'pinCatalogDecision', // real venues: admin override, pin a decision
  'streamAccount', // live means live: the caller's own account changes (docs/portfolio.md)
  'streamMarket', // live means live: one market's book as it changes (docs/events-and-charts.md)
  'streamMarkets', // live means live: up to 20 markets' books on one connection
]);

/** The documented endpoints, one test case each: `[surface, method, path, endpoint]`. */
const CASES = DOCS.map((d) => [d.surface, d.method, d.path, d] as const);

/** The route serving a documented endpoint; fails the case when there is none. */
function routeOf(d: Documented) {
  const r = routed.get(key(d.surface, d.method, d.path));
  if (!r) throw new Error(`${d.surface} ${d.method} ${d.path} is documented but not routed`);
  return r;
}

describe('route table against the documented endpoints', () => {
  it('reads every documented endpoint', () => {
    expect(DOCS).toHaveLength(101);
  });

  it.each(CASES)('%s %s %s is routed', (surface, method, path) => {
    expect(routed.has(key(surface, method, path))).toBe(true);
  });

  it('routes nothing outside the documents', () => {
    const documentedKeys = new Set(DOCS.map((d) => key(d.surface, d.method, d.path)));
    const extra = ROUTES.filter(
      (r) => !documentedKeys.has(key(r.surface, r.method, r.path)) && !UNDOCUMENTED_BUT_ROUTED.has(r.id),
    );
    expect(extra.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it.each(CASES)('%s %s %s declares every documented status', (_s, _m, _p, d) => {
    const r = routeOf(d);
    const declared = new Set([r.status ?? 200, ...r.errors]);
    for (const s of d.statuses) expect(declared).toContain(s);
  });

  it.each(CASES)('%s %s %s has the documented auth', (_s, _m, _p, d) => {
    const r = routeOf(d);
    const expected: Record<string, string> = {
      none: 'none',
      bearer: 'bearer',
      'bearer+admin': 'bearer+admin',
      'none or bearer; live mode needs the wallet-auth token': 'optional-bearer',
      '`Payment-Signature` header': 'payment-signature',
      '`X-Indexer-Secret` header': 'indexer-secret',
      '`X-Rewards-Admin-Token`': 'rewards-admin',
      '`X-Feed-Ingest-Token`': 'feed-ingest',
      '`X-Admin-Token`': 'admin',
      'apikey:read': 'api-key',
      'apikey:write': 'api-key',
    };
    expect(r.auth).toBe(expected[d.auth]);
  });

  it('has unique ids and unique method+path per surface', () => {
    expect(new Set(ROUTES.map((r) => r.id)).size).toBe(ROUTES.length);
    expect(routed.size).toBe(ROUTES.length);
  });

  it('orders literal segments before parameters', () => {
    const sorted = [...ROUTES].sort(bySpecificity).map((r) => r.path);
    const discover = sorted.indexOf('/api/events/discover');
    const bySlug = sorted.indexOf('/api/events/{slug}');
    expect(discover).toBeLessThan(bySlug);
    expect(expressPath('/api/events/{eventId}/markets')).toBe('/api/events/:eventId/markets');
  });
});
