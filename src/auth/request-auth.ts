import { AppError } from '../errors/app-error';
import { safeEqual } from './constant-time';
import type { JwtVerifier, VerifiedToken } from './jwt-verifier';

/** The authenticated user behind a request. */
export interface UserPrincipal {
  userId: string;
  claims: VerifiedToken['claims'];
}

/** Credentials a request may carry, read once from its headers. */
export interface RequestCredentials {
  authorization?: string;
  header(name: string): string | undefined;
}

export interface AuthVerifiers {
  user: JwtVerifier;
  wallet: JwtVerifier;
}

/** Named header tokens (admin, worker and webhook credentials) and their configured values. */
export interface HeaderTokens {
  admin: string;
  rewardsAdmin: string;
  feedIngest: string;
  /** The chain indexer's shared secret (`INDEXER_SHARED_SECRET`); unset, its webhook cannot be served. */
  indexer?: string;
}

/** The header each token comes in, as messages name it (header names are case-insensitive). */
const HEADER_FOR: Record<keyof HeaderTokens, string> = {
  admin: 'x-admin-token',
  rewardsAdmin: 'x-rewards-admin-token',
  feedIngest: 'x-feed-ingest-token',
  indexer: 'X-Indexer-Secret',
};

/** The setting of each token that may be left unset: asking for one then is the server's fault, not the caller's. */
const SETTING_OF_OPTIONAL: Partial<Record<keyof HeaderTokens, string>> = { indexer: 'INDEXER_SHARED_SECRET' };

/**
 * Secrets an operation needs configured before it can check anything the
 * caller sent (the payment webhook's signature key; the signature itself
 * covers the body, so the operation checks it).
 */
export interface RequiredSecrets {
  payment?: string;
}

const SETTING_OF_SECRET: Record<keyof RequiredSecrets, string> = { payment: 'PAYMENT_WEBHOOK_SECRET' };

/**
 * Lazily verifies what a request presents: resolvers ask for the principal they
 * need, so public operations never pay for token verification.
 */
export class RequestAuth {
  private user?: Promise<UserPrincipal | null>;
  private wallet?: Promise<UserPrincipal>;

  constructor(
    private readonly creds: RequestCredentials,
    private readonly verifiers: AuthVerifiers,
    private readonly tokens: HeaderTokens,
    private readonly secrets: RequiredSecrets = {},
  ) {}

  /** The bearer token, if the Authorization header carries one. */
  bearer(): string | undefined {
    const h = this.creds.authorization;
    if (!h) return undefined;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
    return m?.[1];
  }

  /** The user, or null when no credential was sent; an invalid one is a 401. */
  optionalUser(): Promise<UserPrincipal | null> {
    this.user ??= this.verifyUser();
    return this.user;
  }

  async requireUser(): Promise<UserPrincipal> {
    const u = await this.optionalUser();
    if (!u) throw AppError.unauthorized('a bearer token is required');
    return u;
  }

  /** The wallet-auth token (live execution). */
  requireWallet(): Promise<UserPrincipal> {
    this.wallet ??= (async () => {
      const token = this.bearer();
      if (!token) throw AppError.unauthorized('live mode needs the wallet-auth token');
      const v = await this.verifiers.wallet.verify(token);
      return { userId: v.subject, claims: v.claims };
    })();
    return this.wallet;
  }

  /**
   * A valid bearer credential of either kind: the user token, or the
   * wallet-auth token that live trading routes take instead. Which one an
   * operation needs is its own check; this one only refuses callers with
   * neither (the user token's 401).
   */
  async requireAnyBearer(): Promise<void> {
    try {
      await this.requireUser();
    } catch (userError) {
      if (this.bearer() === undefined) throw userError;
      await this.requireWallet().catch(() => {
        throw userError;
      });
    }
  }

  /**
   * Checks a named header token in constant time; 401 when missing or wrong,
   * 500 when it is an optional token that is not configured.
   */
  requireHeaderToken(which: keyof HeaderTokens): void {
    const name = HEADER_FOR[which];
    const expected = this.tokens[which];
    const setting = SETTING_OF_OPTIONAL[which];
    if (setting !== undefined && !expected) throw AppError.notConfigured(name, setting);
    if (!safeEqual(this.creds.header(name.toLowerCase()), expected)) {
      throw AppError.unauthorized(`missing or invalid ${name} header`);
    }
  }

  /** 500 when a secret the operation needs is not configured (nothing the caller sent can be checked). */
  requireConfigured(which: keyof RequiredSecrets): void {
    if (!this.secrets[which]) throw AppError.notConfigured('webhook secret', SETTING_OF_SECRET[which]);
  }

  private async verifyUser(): Promise<UserPrincipal | null> {
    if (this.creds.authorization === undefined) return null;
    const token = this.bearer();
    if (!token) throw AppError.unauthorized('the Authorization header must be "Bearer <token>"');
    const v = await this.verifiers.user.verify(token);
    return { userId: v.subject, claims: v.claims };
  }
}
