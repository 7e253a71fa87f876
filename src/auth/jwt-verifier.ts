import {
  createLocalJWKSet,
  createRemoteJWKSet,
  importSPKI,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { LRUCache } from 'lru-cache';
import { webcrypto } from 'node:crypto';
import { AppError } from '../errors/app-error';

/** Which bearer token a verifier takes: the user's, or the wallet-auth token of live trading. */
export type TokenUse = 'user' | 'wallet';

/** One verifier's keys and claims (AUTH_* and WALLET_AUTH_* settings: src/auth/auth.settings.ts). */
export interface JwtVerifierConfig {
  /** The token type (the `token_use` claim): each verifier refuses the other type's tokens. */
  tokenUse: TokenUse;
  /**
   * Wallet-auth only: whether a token without `token_use` is a wallet-auth token. True only when
   * the wallet-auth key material shares nothing with the user tokens' (no common secret or JWKS
   * URL), so the key that verifies such a token says which kind it is. User tokens may always
   * omit the claim.
   */
  acceptUntyped?: boolean;
  secret?: string;
  jwksUrl?: string;
  publicKey?: string;
  issuer?: string;
  audience?: string;
  algorithms: string[];
}

/**
 * The claim that tells the two bearer token types apart.
 *
 * - A user token carries no `token_use`, or `"access"` (an identity provider's access token).
 *   Any other value (`"wallet"`, an ID token's `"id"`, `"refresh"`, anything else) is refused:
 *   only access tokens authorise calls.
 * - A wallet-auth token carries `"wallet"`, or no `token_use` when the wallet-auth keys share
 *   nothing with the user tokens' ({@link JwtVerifierConfig.acceptUntyped}): then the key that
 *   verifies an untyped token says which kind it is. With a shared secret or JWKS URL (allowed
 *   outside production) an untyped token is a user token only.
 *
 * Neither verifier therefore accepts the other's tokens, whatever keys, issuer or audience they
 * share.
 */
export const TOKEN_USE_CLAIM = 'token_use';

/** The `token_use` each kind declares when it carries one (what the token signer writes). */
export const TOKEN_USE_VALUE: Readonly<Record<TokenUse, string>> = { user: 'access', wallet: 'wallet' };

/** Every bearer token must expire: jose refuses one without `exp`. */
const REQUIRED_CLAIMS = ['exp'];

/** Whether the claims are of the verifier's token type (see {@link TOKEN_USE_CLAIM}). */
export function isOfTokenUse(claims: JWTPayload, cfg: Pick<JwtVerifierConfig, 'tokenUse' | 'acceptUntyped'>): boolean {
  const declared = claims[TOKEN_USE_CLAIM];
  if (declared === undefined) return cfg.tokenUse === 'user' || cfg.acceptUntyped === true;
  return declared === TOKEN_USE_VALUE[cfg.tokenUse];
}

/** Verified claims of a bearer token. */
export interface VerifiedToken {
  subject: string;
  claims: JWTPayload;
}

/** Verifies one kind of bearer JWT (user or wallet-auth) against the configured keys. */
export interface JwtVerifier {
  verify(token: string): Promise<VerifiedToken>;
}

type KeySource =
  | { kind: 'secret'; key: Promise<webcrypto.CryptoKey> }
  | { kind: 'jwks'; getKey: JWTVerifyGetKey }
  | { kind: 'pem'; pem: string };

/**
 * Tokens verified lately, by their whole text (signature included): a client sends the same
 * bearer token with every request, and verifying it again (an HMAC or a signature check through
 * WebCrypto, on the thread pool) was 7 % of a stored order's CPU. A token is served from here only
 * until it expires and at most {@link VERIFIED_TTL_MS} after it was verified, so a key taken out
 * of a JWKS stops admitting its tokens within that time; a token that failed is never kept.
 */
const VERIFIED_MAX_TOKENS = 10_000;
const VERIFIED_TTL_MS = 60_000;

/**
 * Builds a verifier with an explicit algorithm allowlist: HS256 for a shared
 * secret, ES256/RS256 for a JWKS URL or a PEM public key. `alg: none` and
 * algorithm confusion (an HS256 token signed with a public key) are refused
 * because each key source admits only its own algorithms.
 */
export function createJwtVerifier(cfg: JwtVerifierConfig, label: string): JwtVerifier {
  const sources: { source: KeySource; algorithms: string[] }[] = [];
  const asymmetric = cfg.algorithms.filter((a) => a !== 'HS256');
  if (cfg.secret !== undefined && cfg.algorithms.includes('HS256')) {
    // Imported once (jose imports raw key bytes again on every call).
    const key = webcrypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(cfg.secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    key.catch(() => undefined); // a key that cannot be imported fails each verification instead
    sources.push({ source: { kind: 'secret', key }, algorithms: ['HS256'] });
  }
  if (cfg.jwksUrl !== undefined && asymmetric.length > 0) {
    sources.push({
      source: { kind: 'jwks', getKey: createRemoteJWKSet(new URL(cfg.jwksUrl)) },
      algorithms: asymmetric,
    });
  }
  if (cfg.publicKey !== undefined && asymmetric.length > 0) {
    const pem = cfg.publicKey.includes('BEGIN') ? cfg.publicKey : Buffer.from(cfg.publicKey, 'base64').toString('utf8');
    sources.push({ source: { kind: 'pem', pem }, algorithms: asymmetric });
  }
  const pemKeys = new Map<string, ReturnType<typeof importSPKI>>();
  const options = { issuer: cfg.issuer, audience: cfg.audience, requiredClaims: REQUIRED_CLAIMS };

  async function verifyWith(token: string, s: { source: KeySource; algorithms: string[] }): Promise<JWTPayload> {
    const { source, algorithms } = s;
    switch (source.kind) {
      case 'secret':
        return (await jwtVerify(token, await source.key, { ...options, algorithms })).payload;
      case 'jwks':
        return (await jwtVerify(token, source.getKey, { ...options, algorithms })).payload;
      case 'pem': {
        const alg = headerAlg(token);
        if (!algorithms.includes(alg)) throw new Error(`algorithm ${alg} not allowed`);
        let key = pemKeys.get(alg);
        if (!key) {
          key = importSPKI(source.pem, alg);
          pemKeys.set(alg, key);
        }
        return (await jwtVerify(token, await key, { ...options, algorithms: [alg] })).payload;
      }
      default: {
        const never: never = source;
        throw new Error(`unknown key source ${String(never)}`);
      }
    }
  }

  const verified = new LRUCache<string, VerifiedToken>({ max: VERIFIED_MAX_TOKENS });

  return {
    async verify(token) {
      if (sources.length === 0) throw AppError.unauthorized(`${label} tokens are not configured`);
      const known = verified.get(token);
      // The cache's clock is its own: the token's expiry is checked against the wall clock, as jose does.
      if (known !== undefined && (known.claims.exp ?? 0) * 1000 > Date.now()) return known;
      const alg = safeHeaderAlg(token);
      const candidates = sources.filter((s) => alg !== null && s.algorithms.includes(alg));
      for (const s of candidates) {
        try {
          const claims = await verifyWith(token, s);
          if (typeof claims.sub !== 'string' || claims.sub.length === 0) break;
          if (!isOfTokenUse(claims, cfg)) break;
          const result = { subject: claims.sub, claims };
          // Until it expires (jose required `exp`), and no longer than the cache's own bound.
          const ttl = Math.min(VERIFIED_TTL_MS, (claims.exp ?? 0) * 1000 - Date.now());
          if (ttl > 0) verified.set(token, result, { ttl });
          return result;
        } catch {
          // try the next key source; the caller sees one generic 401
        }
      }
      throw AppError.unauthorized(`invalid ${label} token`);
    },
  };
}

function headerAlg(token: string): string {
  const alg = safeHeaderAlg(token);
  if (alg === null) throw new Error('malformed token header');
  return alg;
}

function safeHeaderAlg(token: string): string | null {
  const head = token.split('.')[0];
  if (!head) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'));
    const alg = (parsed as { alg?: unknown }).alg;
    return typeof alg === 'string' ? alg : null;
  } catch {
    return null;
  }
}

/** For tests and tools: a verifier over an in-memory JWKS document. */
export function createLocalJwksVerifier(jwks: { keys: Record<string, unknown>[] }, algorithms: string[]): JwtVerifier {
  const getKey = createLocalJWKSet(jwks);
  return {
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, getKey, { algorithms, requiredClaims: REQUIRED_CLAIMS });
        if (typeof payload.sub !== 'string') throw new Error('no subject');
        return { subject: payload.sub, claims: payload };
      } catch {
        throw AppError.unauthorized('invalid token');
      }
    },
  };
}
