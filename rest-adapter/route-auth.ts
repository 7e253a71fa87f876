import type { GraphQLContext } from '../src/context';
import { PaymentWebhookService } from '../src/modules/webhooks/payment-webhook.service';
import { IndexerWebhookService } from '../src/modules/webhooks/indexer.service';
import type { RouteAuth } from './route.types';

/**
 * Checks the credential a route's `auth` names before its inputs are read, so a
 * caller without one gets the documented 401 (or the 500 of a webhook whose
 * secret is not configured) whatever it sent, and learns nothing of the input
 * rules. The resolvers keep their own checks: they are the rule for GraphQL
 * callers, and re-asking is free (verification is memoized per request).
 *
 * `optional-bearer` (`/execute`: live mode needs the wallet token, which the
 * body decides), `api-key` (the market-data gate ran before routing) and
 * `none` have nothing to check here. A payment signature covers the body, so
 * only the configured secret is checked before it.
 */
export async function authenticateRoute(auth: RouteAuth, ctx: GraphQLContext): Promise<void> {
  switch (auth) {
    case 'none':
    case 'optional-bearer':
    case 'api-key':
      return;
    case 'bearer':
      // Live sells and copies carry the wallet-auth token instead of the user's: either will do here.
      await ctx.auth.requireAnyBearer();
      return;
    case 'bearer+admin':
      await ctx.auth.requireUser();
      ctx.auth.requireHeaderToken('admin');
      return;
    case 'admin':
      ctx.auth.requireHeaderToken('admin');
      return;
    case 'rewards-admin':
      ctx.auth.requireHeaderToken('rewardsAdmin');
      return;
    case 'feed-ingest':
      ctx.auth.requireHeaderToken('feedIngest');
      return;
    case 'indexer-secret':
      ctx.services.get(IndexerWebhookService).authenticate(ctx.header('x-indexer-secret'));
      return;
    case 'payment-signature':
      ctx.services.get(PaymentWebhookService).assertConfigured();
      return;
    default: {
      const unhandled: never = auth;
      throw new Error(`unhandled route auth ${String(unhandled)}`);
    }
  }
}
