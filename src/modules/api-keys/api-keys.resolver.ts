import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { CreateApiKeyArgs, IssueApiKeyArgs, RevokeApiKeyArgs } from './api-keys.inputs';
import { ApiKeyType, CreatedApiKeyType, RateLimitStatusType, RevokedApiKeyType } from './api-keys.types';
import { ApiKeyGate } from './api-key.gate';
import { ApiKeysService } from './api-keys.service';

@Resolver()
export class ApiKeysResolver {
  @Query(() => [ApiKeyType], { description: "The calling key owner's active keys (API key with `read`)." })
  async apiKeys(@Ctx() ctx: GraphQLContext) {
    const me = await ctx.apiKey.require('read');
    return ctx.services.get(ApiKeysService).list(me.owner);
  }

  @Query(() => RateLimitStatusType, { description: "The calling key's plan and quota (API key with `read`)." })
  async apiRateLimit(@Ctx() ctx: GraphQLContext) {
    const me = await ctx.apiKey.require('read');
    return ctx.services.get(ApiKeyGate).status(me);
  }

  @Mutation(() => CreatedApiKeyType, {
    description:
      'A new key for the caller, on its plan, with only scopes the calling key holds (API key with `write`; ' +
      '403 for a scope it lacks; 409 when the owner already has API_KEYS_PER_OWNER active keys).',
  })
  async createApiKey(@Args() args: CreateApiKeyArgs, @Ctx() ctx: GraphQLContext) {
    const me = await ctx.apiKey.require('write');
    return ctx.services.get(ApiKeysService).createBy(me, { name: args.name, scopes: args.scopes });
  }

  @Mutation(() => RevokedApiKeyType, {
    description: "Revokes one of the caller's keys, immediately and for good (API key with `write`).",
  })
  async revokeApiKey(@Args() { keyId }: RevokeApiKeyArgs, @Ctx() ctx: GraphQLContext) {
    const me = await ctx.apiKey.require('write');
    return ctx.services.get(ApiKeysService).revoke(me.owner, keyId);
  }

  @Mutation(() => CreatedApiKeyType, {
    description: 'Bootstraps a key for any owner and plan (X-Admin-Token; the apikey CLI).',
  })
  async issueApiKey(@Args() args: IssueApiKeyArgs, @Ctx() ctx: GraphQLContext) {
    ctx.auth.requireHeaderToken('admin');
    return ctx.services
      .get(ApiKeysService)
      .create({ owner: args.owner, name: args.name, scopes: args.scopes, plan: args.plan });
  }
}
