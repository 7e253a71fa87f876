import { defineSettings, prose, setting } from '../../settings';
import { upstreamVariables } from '../../upstreams/upstreams.settings';

/** Wallets: the wallet provider and chain-balances upstreams, and wallet ownership (imports, challenges). */
export const walletsSettings = defineSettings({
  name: 'wallets',
  title: 'Wallets',
  variables: {
    ...upstreamVariables('WALLET_PROVIDER', 'API_KEY', "provisions users' wallets"),
    ...upstreamVariables(
      'CHAIN_BALANCES',
      'API_KEY',
      "on-chain USDC and native-token balances and the native token's USD price",
    ),
    WALLET_IMPORT_RATE_LIMIT: setting.integer(
      1,
      1_000_000,
      10,
      'wallet imports per minute per user on `POST /api/wallets/import` (429 with `Retry-After` beyond)',
    ),
    WALLET_VERIFY_RATE_LIMIT: setting.integer(
      1,
      1_000_000,
      30,
      prose`challenges and verify attempts together, per minute per user (\`/api/wallets/{id}/challenge\`,
        \`/verify\`; 429 beyond)`,
    ),
    WALLET_CHALLENGE_TTL_SECONDS: setting.integer(
      30,
      86_400,
      600,
      'how long an ownership challenge stays open (`expiresAt`)',
    ),
  },
  map: (v) => ({
    upstreams: {
      walletProvider: { url: v.WALLET_PROVIDER_URL, apiKey: v.WALLET_PROVIDER_API_KEY },
      chainBalances: { url: v.CHAIN_BALANCES_URL, apiKey: v.CHAIN_BALANCES_API_KEY },
    },
    /**
     * Wallet ownership: imports per user per minute; challenges and verify attempts (together) per
     * user per minute; how long a challenge stays open (seconds).
     */
    wallets: {
      importPerMinute: v.WALLET_IMPORT_RATE_LIMIT,
      verifyPerMinute: v.WALLET_VERIFY_RATE_LIMIT,
      challengeTtlSeconds: v.WALLET_CHALLENGE_TTL_SECONDS,
    },
  }),
});
