import { defineSettings, prose, setting } from '../settings';

/** What browsers get: cross-origin access and the OpenAPI page. */
export const browserSettings = defineSettings({
  name: 'browser',
  title: 'Browsers',
  variables: {
    CORS_ORIGINS: setting.text({
      meaning: prose`the browser origins that may call the API cross-origin, with credentials: preflights answered
        with 204, the API's own headers readable ([security.md](security.md#cors)). Any other origin gets no CORS
        header`,
      default: 'unset: same-origin only',
      accepted: 'comma-separated origins, each `scheme://host[:port]` (http or https, no path, no `*`)',
      example: 'https://app.example.com,http://localhost:5173',
    }),
    API_DOCS: setting.choice(
      ['true', 'false'],
      'true',
      'the OpenAPI reference page (Swagger UI) at `/docs`; it renders `/openapi.json`, which is public either way',
    ),
  },
  map: (v, ctx) => ({
    /**
     * What browsers get: the origins allowed to call the API cross-origin (empty: same-origin only,
     * no CORS headers at all) and whether `/docs` serves the OpenAPI page.
     */
    browser: {
      corsOrigins: corsOriginsOf(v.CORS_ORIGINS, ctx.problem),
      // On in production too: it only renders /openapi.json, which is public.
      apiDocs: v.API_DOCS === 'true',
    },
  }),
});

/**
 * CORS_ORIGINS: comma-separated origins exactly as a browser sends them in `Origin`
 * (`https://app.example.com`, `http://localhost:5173`): a scheme, a host and an optional port,
 * no path and no wildcard, so the allowlist is always explicit.
 */
function corsOriginsOf(v: string | undefined, problem: (message: string) => void): string[] {
  const list = (v ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  for (const entry of list) {
    let origin: string | undefined;
    try {
      const url = new URL(entry);
      if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
    } catch {
      origin = undefined;
    }
    if (origin !== entry) {
      problem(`CORS_ORIGINS: "${entry}" is not an origin (scheme://host[:port], no path or trailing slash)`);
    }
  }
  return list;
}
