import { Field, ID, Int, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums';
import type { RateLimitStatusView } from './api-key.gate';
import { API_PLANS, API_SCOPES } from './api-keys.limits';
import type { ApiKeyView, CreatedApiKeyView, RevokedApiKeyView } from './api-keys.models';

export const ApiScopeEnum = graphqlEnum(API_SCOPES, {
  name: 'ApiScope',
  description: '`read`: data and account reads; `write`: key management.',
});

export const ApiPlanEnum = graphqlEnum(API_PLANS, {
  name: 'ApiPlan',
  description: 'Requests per minute: free 60, pro 600, enterprise 6000.',
});

@ObjectType('ApiKey', { description: 'A market-data API key as listed: a preview, never the key.' })
export class ApiKeyType implements ApiKeyView {
  @Field(() => ID)
  id: string;
  @Field()
  name: string;
  @Field({ description: 'The prefix and a few characters of the key.' })
  keyPreview: string;
  @Field(() => [ApiScopeEnum])
  scopes: ApiKeyView['scopes'];
  @Field(() => ApiPlanEnum)
  plan: ApiKeyView['plan'];
  @Field()
  createdAt: Date;
  @Field(() => Date, {
    nullable: true,
    description: 'Updated in batches (about every flush interval), not per request.',
  })
  lastUsedAt: Date | null;
}

@ObjectType('CreatedApiKey', { description: 'A new key; `key` is shown here and never again.' })
export class CreatedApiKeyType extends ApiKeyType implements CreatedApiKeyView {
  @Field({ description: 'The full key: `mk_live_` and 33 random base62 characters.' })
  key: string;
}

@ObjectType('RevokedApiKey')
export class RevokedApiKeyType implements RevokedApiKeyView {
  @Field(() => ID)
  id: string;
  @Field(() => Boolean)
  revoked: true;
  @Field()
  revokedAt: Date;
}

@ObjectType('RateLimitStatus', { description: "The calling key's quota; reading it spends none." })
export class RateLimitStatusType implements RateLimitStatusView {
  @Field(() => ApiPlanEnum)
  plan: RateLimitStatusView['plan'];
  @Field(() => Int, { description: 'Requests per window.' })
  limit: number;
  @Field(() => Int)
  remaining: number;
  @Field(() => Int, { description: 'Unix time (seconds) when the window frees a request.' })
  reset: number;
  @Field({ description: '`1m`: a rolling minute.' })
  window: string;
}
