import type { PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import type { Cache, PubSub } from '../../infra';
import { generateApiKey, hashApiKey, isApiKeyShaped, newKeyId, previewOf } from './api-key.codec';
import { API_KEY_REVOKED_TOPIC, RevokedMessage, type ApiPlan, type ApiScope } from './api-keys.limits';
import {
  toApiKeyView,
  toPrincipal,
  type ApiKeyPrincipal,
  type ApiKeyView,
  type CreatedApiKeyView,
  type RevokedApiKeyView,
} from './api-keys.models';
import { LookupCache } from './lookup-cache';

export interface NewApiKey {
  owner: string;
  name: string;
  scopes: readonly ApiScope[];
  plan: ApiPlan;
}

/** Default of `API_KEYS_PER_OWNER`: the most active (unrevoked) keys one owner may hold. */
export const DEFAULT_KEYS_PER_OWNER = 10;

/**
 * Stores a new key (its hash and preview) and returns it with the full key,
 * which exists nowhere else afterwards. Used by the service and by the
 * apikey CLI when it opens the database itself. An owner holding
 * `maxActivePerOwner` active keys gets a 409: each key has a quota of its own,
 * so the cap bounds how far one owner can multiply it. The count and the
 * insert run under a per-owner advisory lock, so concurrent creations cannot
 * pass the cap together.
 */
export async function createApiKey(
  prisma: PrismaClient,
  input: NewApiKey,
  maxActivePerOwner: number = DEFAULT_KEYS_PER_OWNER,
): Promise<CreatedApiKeyView> {
  const key = generateApiKey();
  const row = await prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${API_KEY_OWNER_LOCK}, hashtext(${input.owner}::text))`;
    const active = await tx.apiKey.count({ where: { owner: input.owner, revokedAt: null } });
    if (active >= maxActivePerOwner) {
      throw AppError.conflict(
        `this owner already has ${active} active API keys (at most ${maxActivePerOwner}); revoke one first`,
      );
    }
    return tx.apiKey.create({
      data: {
        id: newKeyId(),
        owner: input.owner,
        name: input.name,
        keyHash: hashApiKey(key),
        keyPreview: previewOf(key),
        scopes: [...new Set(input.scopes)].sort(),
        plan: input.plan,
      },
    });
  });
  return { ...toApiKeyView(row), key };
}

/** First half of the two-int advisory lock key that serialises key creation per owner. */
const API_KEY_OWNER_LOCK = 0x61706b;

/**
 * How long a lookup is trusted without asking the database. Revocation does
 * not wait for it: every request with a cached key also asks the shared
 * revocation set (see {@link ApiKeysService.authenticate}).
 */
export const LOOKUP_TTL_MS = 60_000;
export const LOOKUP_MAX_ENTRIES = 10_000;

/**
 * How long a revoked key stays in the shared revocation set. Far longer than
 * {@link LOOKUP_TTL_MS}: a lookup cached by any process (even one that raced
 * the revocation) has expired long before its mark does, and the database
 * answers from then on.
 */
export const REVOCATION_MARK_TTL_MS = 24 * 60 * 60 * 1000;

/** The revocation set's entry of a key (in Redis when configured, else in-process). */
const revokedMark = (keyHash: string) => `apikeys:revoked:${keyHash}`;

export interface ApiKeysOptions {
  /** Most active keys per owner (`API_KEYS_PER_OWNER`). */
  maxKeysPerOwner?: number;
  now?: () => number;
}

/**
 * API keys: creation (the key is shown once, only its hash is stored),
 * listing, revocation and the per-request lookup. Lookups are cached per
 * process, but a cached key is served only after the shared revocation set
 * (the infra cache: Redis when configured) says it was not revoked, so a
 * revocation holds from the next request on, in every process.
 */
export class ApiKeysService {
  /**
   * By key hash; `null` caches "no such key" (keys are random: one unseen before creation cannot be cached as
   * missing).
   */
  private readonly cache: LookupCache<ApiKeyPrincipal | null>;
  /** Bumped by every revocation: a lookup that raced one is not cached. */
  private revocations = 0;

  private readonly now: () => number;
  private readonly maxKeysPerOwner: number;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly pubsub: PubSub,
    private readonly revocationSet: Cache,
    opts: ApiKeysOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.maxKeysPerOwner = opts.maxKeysPerOwner ?? DEFAULT_KEYS_PER_OWNER;
    this.cache = new LookupCache(LOOKUP_MAX_ENTRIES, this.now);
  }

  /** A key for any owner and plan (the admin's bootstrap, tests); 409 past the per-owner cap. */
  create(input: NewApiKey): Promise<CreatedApiKeyView> {
    return createApiKey(this.prisma, input, this.maxKeysPerOwner);
  }

  /**
   * A key created by a key: for the same owner, on the same plan, with no scope the creating key
   * lacks (403), within the per-owner cap (409).
   */
  createBy(creator: ApiKeyPrincipal, input: { name: string; scopes: readonly ApiScope[] }): Promise<CreatedApiKeyView> {
    const missing = input.scopes.filter((s) => !creator.scopes.includes(s));
    if (missing.length > 0) {
      const lacking = [...new Set(missing)].join(', ');
      throw AppError.forbidden(
        `this API key lacks the ${lacking} scope: a key can only create keys with scopes it holds`,
      );
    }
    return this.create({ owner: creator.owner, name: input.name, scopes: input.scopes, plan: creator.plan });
  }

  /** The owner's active keys, oldest first. */
  async list(owner: string): Promise<ApiKeyView[]> {
    const rows = await this.prisma.apiKey.findMany({
      where: { owner, revokedAt: null },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return rows.map(toApiKeyView);
  }

  /**
   * Revokes one of the owner's keys, for good. Idempotent: revoking a revoked
   * key answers its original revocation time. Another owner's key is a 404.
   */
  async revoke(owner: string, keyId: string): Promise<RevokedApiKeyView> {
    const revokedAt = new Date(this.now());
    await this.prisma.apiKey.updateMany({ where: { id: keyId, owner, revokedAt: null }, data: { revokedAt } });
    const row = await this.prisma.apiKey.findFirst({ where: { id: keyId, owner } });
    if (!row || !row.revokedAt) throw AppError.notFound(`API key ${keyId}`);
    // Marked before answering (also on a repeated revocation, which repairs a mark that failed to be set).
    await this.revocationSet.set(revokedMark(row.keyHash), true, REVOCATION_MARK_TTL_MS);
    this.forget(row.keyHash);
    await this.pubsub.publish<RevokedMessage>(API_KEY_REVOKED_TOPIC, { keyHash: row.keyHash });
    return { id: row.id, revoked: true, revokedAt: row.revokedAt };
  }

  /** The principal behind a presented key; null when unknown, malformed or revoked. */
  async authenticate(presented: string): Promise<ApiKeyPrincipal | null> {
    if (!isApiKeyShaped(presented)) return null;
    const keyHash = hashApiKey(presented);
    const cached = this.cache.get(keyHash);
    if (cached === null) return null;
    if (cached !== undefined) {
      const revoked = await this.isMarkedRevoked(keyHash);
      if (revoked === false) return cached;
      this.cache.delete(keyHash); // revoked, or the set could not be read: the database decides
    }
    const seen = this.revocations;
    const row = await this.prisma.apiKey.findUnique({
      where: { keyHash },
      select: { id: true, owner: true, scopes: true, plan: true, revokedAt: true },
    });
    const principal = row && row.revokedAt === null ? toPrincipal(row) : null;
    if (seen === this.revocations) this.cache.set(keyHash, principal, LOOKUP_TTL_MS);
    return principal;
  }

  /** Whether the key is in the revocation set; undefined when the set cannot be read. */
  private async isMarkedRevoked(keyHash: string): Promise<boolean | undefined> {
    try {
      return (await this.revocationSet.get<boolean>(revokedMark(keyHash))) === true;
    } catch {
      return undefined;
    }
  }

  /** Drops a revoked key's cached lookup (this process's revocation, or another's through the pub/sub). */
  forget(keyHash: string): void {
    this.revocations += 1;
    this.cache.delete(keyHash);
  }

  /** Records when keys were last used (called by the usage flush, never per request). */
  async touch(lastUsed: ReadonlyMap<string, Date>): Promise<void> {
    if (lastUsed.size === 0) return;
    await this.prisma.$transaction(
      [...lastUsed].map(([id, at]) =>
        this.prisma.apiKey.updateMany({
          where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: at } }] },
          data: { lastUsedAt: at },
        }),
      ),
    );
  }
}
