import { defineSettings, prose, setting } from '../settings';

const OUTSIDE_PRODUCTION = '`true`, `false` in production';

/**
 * GraphQL limits, checked before anything runs on /graphql, /graphql/stream and the REST adapter
 * (src/graphql/limits.ts), and what of the schema is shown: introspection and GraphiQL.
 */
export const graphqlSettings = defineSettings({
  name: 'graphql',
  title: 'GraphQL limits',
  variables: {
    GRAPHQL_MAX_DEPTH: setting.integer(
      1,
      1000,
      12,
      'deepest field nesting of an operation (`maxDepth`; introspection not counted)',
    ),
    GRAPHQL_MAX_ALIASES: setting.integer(0, 100_000, 30, 'aliases in an operation, fragments included (`maxAliases`)'),
    GRAPHQL_MAX_TOKENS: setting.integer(
      1,
      1_000_000,
      3000,
      "tokens in a document (`maxTokens`, graphql-js's parser bound)",
    ),
    GRAPHQL_MAX_DIRECTIVES: setting.integer(0, 100_000, 20, 'directives in an operation (`maxDirectives`)'),
    GRAPHQL_MAX_COST: setting.integer(
      1,
      1_000_000_000,
      10_000,
      'computed cost of an operation with its variables (`maxCost`)',
    ),
    GRAPHQL_INTROSPECTION: setting.optionalChoice(['true', 'false'], {
      meaning: 'schema introspection on `/graphql` and `/graphql/stream`',
      default: OUTSIDE_PRODUCTION,
    }),
    GRAPHIQL: setting.optionalChoice(['true', 'false'], {
      meaning: prose`the GraphiQL IDE at \`/graphql\` for browsers`,
      default: OUTSIDE_PRODUCTION,
    }),
  },
  map: (v, ctx) => ({
    /** GraphQL limits, checked before execution on /graphql, /graphql/stream and the REST adapter. */
    graphql: {
      maxDepth: v.GRAPHQL_MAX_DEPTH,
      maxAliases: v.GRAPHQL_MAX_ALIASES,
      maxTokens: v.GRAPHQL_MAX_TOKENS,
      maxDirectives: v.GRAPHQL_MAX_DIRECTIVES,
      maxCost: v.GRAPHQL_MAX_COST,
      // Both on outside production unless set; off in production unless set.
      introspection: v.GRAPHQL_INTROSPECTION === undefined ? !ctx.production : v.GRAPHQL_INTROSPECTION === 'true',
      graphiql: v.GRAPHIQL === undefined ? !ctx.production : v.GRAPHIQL === 'true',
    },
  }),
});
