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

/** Named header tokens (admin and worker credentials) and their configured values. */
export interface HeaderTokens {
  admin: string;
  rewardsAdmin: string;
  feedIngest: string;
}

const HEADER_FOR: Record<keyof HeaderTokens, string> = {
  admin: 'x-admin-token',
  rewardsAdmin: 'x-rewards-admin-token',
  feedIngest: 'x-feed-ingest-token',
};

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

  /** Checks a named header token in constant time; 401 when missing or wrong. */
  requireHeaderToken(which: keyof HeaderTokens): void {
    const name = HEADER_FOR[which];
    if (!safeEqual(this.creds.header(name), this.tokens[which])) {
      throw AppError.unauthorized(`missing or invalid ${name} header`);
    }
  }

  private async verifyUser(): Promise<UserPrincipal | null> {
    if (this.creds.authorization === undefined) return null;
    const token = this.bearer();
    if (!token) throw AppError.unauthorized('the Authorization header must be "Bearer <token>"');
    const v = await this.verifiers.user.verify(token);
    return { userId: v.subject, claims: v.claims };
  }
}
