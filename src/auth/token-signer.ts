import { SignJWT } from 'jose';
import { TOKEN_USE_CLAIM, TOKEN_USE_VALUE, type JwtVerifierConfig } from './jwt-verifier';

/**
 * Signs an HS256 token for a subject with the configured secret (the `token` CLI, tests): it
 * expires, carries the configured issuer and audience, and declares its type (`token_use`: `access`
 * for a user token, `wallet` for a wallet-auth token).
 */
export async function signToken(
  cfg: JwtVerifierConfig,
  subject: string,
  opts: { ttlSeconds?: number; claims?: Record<string, unknown> } = {},
): Promise<string> {
  if (cfg.secret === undefined) {
    throw new Error(
      'no shared secret configured: tokens for a JWKS or public-key setup come from the identity provider',
    );
  }
  let jwt = new SignJWT({ ...opts.claims, [TOKEN_USE_CLAIM]: TOKEN_USE_VALUE[cfg.tokenUse] })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime(`${opts.ttlSeconds ?? 3600}s`);
  if (cfg.issuer) jwt = jwt.setIssuer(cfg.issuer);
  if (cfg.audience) jwt = jwt.setAudience(cfg.audience);
  return jwt.sign(new TextEncoder().encode(cfg.secret));
}
