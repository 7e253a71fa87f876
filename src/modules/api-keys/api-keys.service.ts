import type { PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import type { PubSub } from '../../infra';
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

/**
 * Stores a new key (its hash and preview) and returns it with the full key,
 * which exists nowhere else afterwards. Used by the service and by the
 * apikey CLI when it opens the database itself.
 */
export async function createApiKey(prisma: PrismaClient, input: NewApiKey): Promise<CreatedApiKeyView> {
  const key = generateApiKey();
  const row = await prisma.apiKey.create({
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
  return { ...toApiKeyView(row), key };
}

/**
 * How long a lookup is trusted without asking the database. Revocation does
 * not wait for it: it is announced on the pub/sub and every process drops the
 * entry; the expiry only bounds staleness should that message be lost.
 */
export const LOOKUP_TTL_MS = 60_000;
export const LOOKUP_MAX_ENTRIES = 10_000;

/**
 * API keys: creation (the key is shown once, only its hash is stored),
 * listing, revocation and the per-request lookup, cached per process.
 */
export class ApiKeysService {
  /**
   * By key hash; `null` caches "no such key" (keys are random: one unseen before creation cannot be cached as
   * missing).
   */
  private readonly cache: LookupCache<ApiKeyPrincipal | null>;
  /** Bumped by every revocation: a lookup that raced one is not cached. */
  private revocations = 0;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly pubsub: PubSub,
    private readonly now: () => number = Date.now,
  ) {
    this.cache = new LookupCache(LOOKUP_MAX_ENTRIES, now);
  }

  create(input: NewApiKey): Promise<CreatedApiKeyView> {
    return createApiKey(this.prisma, input);
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
    this.forget(row.keyHash);
    await this.pubsub.publish<RevokedMessage>(API_KEY_REVOKED_TOPIC, { keyHash: row.keyHash });
    return { id: row.id, revoked: true, revokedAt: row.revokedAt };
  }

  /** The principal behind a presented key; null when unknown, malformed or revoked. */
  async authenticate(presented: string): Promise<ApiKeyPrincipal | null> {
    if (!isApiKeyShaped(presented)) return null;
    const keyHash = hashApiKey(presented);
    const cached = this.cache.get(keyHash);
    if (cached !== undefined) return cached;
    const seen = this.revocations;
    const row = await this.prisma.apiKey.findUnique({
      where: { keyHash },
      select: { id: true, owner: true, scopes: true, plan: true, revokedAt: true },
    });
    const principal = row && row.revokedAt === null ? toPrincipal(row) : null;
    if (seen === this.revocations) this.cache.set(keyHash, principal, LOOKUP_TTL_MS);
    return principal;
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
