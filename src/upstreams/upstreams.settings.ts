import { defineSettings, prose, setting } from '../settings';

/** What every upstream of the modules shares (each module declares its own upstream's URL and key). */
export const upstreamsSettings = defineSettings({
  name: 'upstreams',
  title: 'Upstreams',
  variables: {
    UPSTREAM_TIMEOUT_MS: setting.integer(
      100,
      120_000,
      10_000,
      prose`timeout of each call to an upstream: the wallet provider, chain balances, the payment processor, the
        identity provider (a failure or timeout is a 502; 503 for proof links) and the execution service`,
    ),
  },
  map: (v) => ({ upstreams: { timeoutMs: v.UPSTREAM_TIMEOUT_MS } }),
});

/** An HTTP upstream: its base URL (unset: the simulated one) and API key. */
export interface UpstreamConfig {
  url?: string;
  apiKey?: string;
}

/**
 * An upstream's two variables, `<PREFIX>_URL` and `<PREFIX>_<keyName>`: its base URL (unset: the
 * simulated one) and bearer API key. `what` says what it is for.
 */
export function upstreamVariables<P extends string, K extends string>(prefix: P, keyName: K, what: string) {
  return {
    [`${prefix}_URL`]: setting.url(['http:', 'https:'], {
      meaning: `${what}: base URL`,
      default: 'unset: simulated',
    }),
    [`${prefix}_${keyName}`]: setting.text(`${what}: bearer API key`),
  } as Record<`${P}_URL` | `${P}_${K}`, ReturnType<typeof setting.text>>;
}
