import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { rateLimitSubject } from '../auth/rate-limit-subject';
import type { GraphQLContext } from '../context';
import { VENUE_FIELDS } from './limits';

/** The per-client policy (declared by the markets module) that venue-field resolutions count against. */
export const VENUE_READS_POLICY = 'venueReads';

/**
 * Counts every resolution of a field that reads a venue ({@link VENUE_FIELDS}: books, trades,
 * holders, charts, history, cost rundown, routing, portfolio marks) against the caller's
 * {@link VENUE_READS_POLICY} limit, per user when a user token is sent, else per client address.
 * It applies while a venue is live (the simulated venues have no budget to protect). Beyond the
 * limit the field fails with `rate_limited` (a GraphQL error with that code; REST: 429 with
 * Retry-After) before the venue is asked; the operation's other fields still answer.
 *
 * The resolvers are wrapped in the built schema by `finalizeSchema` (finalize-schema.ts), not by a
 * type-graphql middleware, which would put every plain field back on a resolver call.
 */
export function limitVenueFields(schema: GraphQLSchema): void {
  for (const coordinate of VENUE_FIELDS) {
    const [typeName, fieldName] = coordinate.split('.');
    const type = schema.getType(typeName);
    const field = isObjectType(type) ? type.getFields()[fieldName] : undefined;
    const resolve = field?.resolve as GraphQLFieldResolver<unknown, GraphQLContext> | undefined;
    if (!field || !resolve) throw new Error(`venue field ${coordinate}: no resolver in the schema`);
    field.resolve = async (source, args, context: GraphQLContext, info) => {
      await admitVenueRead(context);
      return resolve(source, args, context, info);
    };
  }
}

async function admitVenueRead(ctx: GraphQLContext): Promise<void> {
  const { venueSources, rateLimits } = ctx.services;
  if (venueSources.venue_a !== 'live' && venueSources.venue_b !== 'live') return;
  await rateLimits.consume(VENUE_READS_POLICY, await rateLimitSubject(ctx));
}
