import type { ApiKey } from '../../db/generated/client';
import type { ApiPlan, ApiScope } from './api-keys.limits';

/** An API key as listings show it: never the key itself. */
export interface ApiKeyView {
  id: string;
  name: string;
  keyPreview: string;
  scopes: ApiScope[];
  plan: ApiPlan;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** The creation response: the only time the full key is shown. */
export interface CreatedApiKeyView extends ApiKeyView {
  key: string;
}

export interface RevokedApiKeyView {
  id: string;
  revoked: true;
  revokedAt: Date;
}

/** Who an authenticated request acts for. */
export interface ApiKeyPrincipal {
  keyId: string;
  owner: string;
  scopes: readonly ApiScope[];
  plan: ApiPlan;
}

export function toApiKeyView(row: ApiKey): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    keyPreview: row.keyPreview,
    scopes: [...row.scopes],
    plan: row.plan,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
  };
}

export function toPrincipal(row: Pick<ApiKey, 'id' | 'owner' | 'scopes' | 'plan'>): ApiKeyPrincipal {
  return { keyId: row.id, owner: row.owner, scopes: [...row.scopes], plan: row.plan };
}
