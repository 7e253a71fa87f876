import {
  defineSettings,
  DEVELOPMENT_SECRET,
  MIN_SECRET_BYTES,
  prose,
  setting,
  type SettingsContext,
} from '../settings';
import type { JwtVerifierConfig } from './jwt-verifier';

const DEV_TOKEN = 'development-admin-token';
const ALLOWED_ALGS = ['HS256', 'ES256', 'RS256'];
const jwksUrl = (meaning: string) =>
  setting.url(['http:', 'https:'], {
    meaning,
    accepted: '`http(s)` URL (`https` in production)',
    example: 'https://id.example.com/.well-known/jwks.json',
  });

/**
 * Bearer tokens (the user's, and the wallet-auth token of live trading) and the header credentials
 * of admins, workers and the chain indexer.
 */
export const authSettings = defineSettings({
  name: 'auth',
  title: 'Authentication and credentials',
  variables: {
    AUTH_JWT_SECRET: setting.text({
      meaning: 'user bearer tokens: HS256 secret (required unless a JWKS URL or public key is set)',
      default: 'dev secret',
      accepted: `at least ${MIN_SECRET_BYTES} bytes`,
    }),
    AUTH_JWKS_URL: jwksUrl('user bearer tokens: ES256/RS256 keys through a JWKS URL'),
    AUTH_JWT_PUBLIC_KEY: setting.text({
      meaning: 'user bearer tokens: ES256/RS256 public key',
      accepted: 'PEM, or base64 of the PEM',
    }),
    AUTH_JWT_ISSUER: setting.text({
      meaning: 'required `iss` claim of user and wallet-auth tokens',
      default: 'unchecked (required in production)',
    }),
    AUTH_JWT_AUDIENCE: setting.text({
      meaning: 'required `aud` claim of user and wallet-auth tokens',
      default: 'unchecked (required in production)',
    }),
    AUTH_JWT_ALGORITHMS: setting.text({
      meaning: 'algorithm allowlist',
      default: '`HS256,ES256,RS256`',
      accepted: 'comma-separated subset of those',
      example: 'HS256,ES256,RS256',
    }),
    WALLET_AUTH_JWT_SECRET: setting.text({
      meaning: prose`wallet-auth tokens (live execution; they carry \`token_use: "wallet"\` and the user's id as
        \`sub\`): HS256 secret, different from \`AUTH_JWT_SECRET\` in production (required unless
        \`WALLET_AUTH_JWKS_URL\` is set)`,
      default: 'dev secret',
      accepted: `at least ${MIN_SECRET_BYTES} bytes`,
    }),
    WALLET_AUTH_JWKS_URL: jwksUrl('wallet-auth tokens: JWKS URL'),
    ADMIN_TOKEN: setting.secret({
      meaning: '`X-Admin-Token` header credential: admin operations, and the CLIs beside a running embedded server',
      default: 'dev token (required in production)',
    }),
    REWARDS_ADMIN_TOKEN: setting.secret({
      meaning: '`X-Rewards-Admin-Token` header credential',
      default: 'dev token (required in production)',
    }),
    FEED_INGEST_TOKEN: setting.secret({
      meaning: '`X-Feed-Ingest-Token` header credential',
      default: 'dev token (required in production)',
    }),
    INDEXER_SHARED_SECRET: setting.secret('chain-indexer webhook secret, `X-Indexer-Secret` (unset: 500)'),
  },
  check(v, ctx) {
    if (!ctx.production) return;
    // Bearer tokens bound to an issuer and audience, and JWKS fetched over https only.
    if (v.AUTH_JWT_ISSUER === undefined) ctx.problem('AUTH_JWT_ISSUER: required when NODE_ENV=production');
    if (v.AUTH_JWT_AUDIENCE === undefined) ctx.problem('AUTH_JWT_AUDIENCE: required when NODE_ENV=production');
    for (const name of ['AUTH_JWKS_URL', 'WALLET_AUTH_JWKS_URL'] as const) {
      const url = v[name];
      if (url !== undefined && new URL(url).protocol !== 'https:') {
        ctx.problem(`${name}: must be an https URL when NODE_ENV=production`);
      }
    }
  },
  map(v, ctx) {
    const algorithms = (v.AUTH_JWT_ALGORITHMS ?? ALLOWED_ALGS.join(',')).split(',').map((a) => a.trim());
    for (const a of algorithms) {
      if (!ALLOWED_ALGS.includes(a)) ctx.problem(`AUTH_JWT_ALGORITHMS: ${a} is not one of ${ALLOWED_ALGS.join(', ')}`);
    }
    const { user: userSecret, wallet: walletSecret } = bearerSecrets(v, ctx);
    const shared = userSecret !== undefined && userSecret === walletSecret;
    // Neither kind may be forged with the other's key where money is real.
    if (ctx.production && shared) {
      ctx.problem('WALLET_AUTH_JWT_SECRET: must differ from AUTH_JWT_SECRET when NODE_ENV=production');
    }
    const user: JwtVerifierConfig = {
      tokenUse: 'user',
      secret: userSecret,
      jwksUrl: v.AUTH_JWKS_URL,
      publicKey: v.AUTH_JWT_PUBLIC_KEY,
      issuer: v.AUTH_JWT_ISSUER,
      audience: v.AUTH_JWT_AUDIENCE,
      algorithms,
    };
    const wallet: JwtVerifierConfig = {
      tokenUse: 'wallet',
      acceptUntyped: !shared && !sameUrl(v.AUTH_JWKS_URL, v.WALLET_AUTH_JWKS_URL),
      secret: walletSecret,
      jwksUrl: v.WALLET_AUTH_JWKS_URL,
      issuer: v.AUTH_JWT_ISSUER,
      audience: v.AUTH_JWT_AUDIENCE,
      algorithms,
    };
    return {
      auth: { user, wallet },
      /** Header tokens; `indexer` (INDEXER_SHARED_SECRET) may be unset. */
      tokens: {
        admin: ctx.orDevelopment('ADMIN_TOKEN', v.ADMIN_TOKEN, DEV_TOKEN),
        rewardsAdmin: ctx.orDevelopment('REWARDS_ADMIN_TOKEN', v.REWARDS_ADMIN_TOKEN, `${DEV_TOKEN}-rewards`),
        feedIngest: ctx.orDevelopment('FEED_INGEST_TOKEN', v.FEED_INGEST_TOKEN, `${DEV_TOKEN}-feed`),
        indexer: v.INDEXER_SHARED_SECRET,
      },
    };
  },
});

/**
 * The HS256 secrets of the two token kinds: each required (a development value outside production)
 * unless that kind's keys come from a JWKS URL or public key, and at least MIN_SECRET_BYTES in every mode.
 */
function bearerSecrets(
  v: { AUTH_JWT_SECRET?: string; AUTH_JWKS_URL?: string; AUTH_JWT_PUBLIC_KEY?: string } & {
    WALLET_AUTH_JWT_SECRET?: string;
    WALLET_AUTH_JWKS_URL?: string;
  },
  ctx: SettingsContext,
): { user?: string; wallet?: string } {
  const userHasKeys = v.AUTH_JWKS_URL !== undefined || v.AUTH_JWT_PUBLIC_KEY !== undefined;
  const user = userHasKeys
    ? v.AUTH_JWT_SECRET
    : ctx.orDevelopment('AUTH_JWT_SECRET', v.AUTH_JWT_SECRET, DEVELOPMENT_SECRET);
  const wallet =
    v.WALLET_AUTH_JWKS_URL !== undefined
      ? v.WALLET_AUTH_JWT_SECRET
      : ctx.orDevelopment('WALLET_AUTH_JWT_SECRET', v.WALLET_AUTH_JWT_SECRET, `${DEVELOPMENT_SECRET}-wallet`);
  for (const [name, secret] of [
    ['AUTH_JWT_SECRET', user],
    ['WALLET_AUTH_JWT_SECRET', wallet],
  ] as const) {
    if (secret !== undefined && Buffer.byteLength(secret) < MIN_SECRET_BYTES) {
      ctx.problem(`${name}: must be at least ${MIN_SECRET_BYTES} bytes for HS256`);
    }
  }
  return { user, wallet };
}

/**
 * Whether both JWKS URLs are set and the same: then the wallet-auth key material is not its own, and a
 * token without `token_use` cannot be told apart by the key that verifies it.
 */
function sameUrl(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && new URL(a).href === new URL(b).href;
}
