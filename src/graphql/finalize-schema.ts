import { isObjectType, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import { refuseUnstorableArgs } from './validate-args';
import { limitVenueFields } from './venue-read-limit';

/** What {@link finalizeSchema} leaves beside the schema. */
export interface FinalizedSchema {
  /** `Type.field` of every field with a resolver of its own (a field resolver); the rest are plain properties. */
  resolvedFields: ReadonlySet<string>;
}

/** The parts of type-graphql's metadata read here (its `MetadataStorage`, as `getMetadataStorage()` returns it). */
type TypeGraphqlMetadata = Pick<
  ReturnType<typeof getMetadataStorage>,
  'objectTypes' | 'interfaceTypes' | 'fieldResolvers' | 'fields' | 'middlewares' | 'authorizedFields' | 'subscriptions'
>;

const finalized = new WeakSet<GraphQLSchema>();

/**
 * The changes made to the schema type-graphql built, all here, in this order. Each reaches past
 * the library on purpose, for a contract it does not offer:
 *
 * 1. **Subscription arguments checked when the stream is created.** type-graphql validates a
 *    field's arguments in its resolver, which for a subscription runs on each event, after the
 *    stream started (an order has run): every subscription's arguments are checked for text
 *    PostgreSQL cannot store before its subscribe function runs, a 400 before anything happens.
 * 2. **Plain fields are property reads.** type-graphql gives every field a resolver that returns
 *    `root[name]` through its (here empty) middleware chain. Without middlewares or authorization,
 *    graphql's default property read gives the same answer, and graphql-jit compiles it to a
 *    property access; a field with a field resolver, or renamed in the schema, keeps its resolver.
 * 3. **Subscription events mapped without validating the arguments again.** type-graphql's
 *    resolver validates the field's arguments each time it runs, which for a subscription is each
 *    event, and that validation is asynchronous: every event's execution became a promise. The
 *    arguments are the stream's own, checked when it started (1. and the subscribe function), so an
 *    event resolver whose parameters are its `@Root()` event (untyped) and argument declarations is
 *    called directly, with the event and the arguments as given: synchronous, one message made
 *    for a market's 2,000 clients in the same turn as its event. Kept on type-graphql's resolver
 *    when anything else is asked for (context, info, a typed root, roles, middlewares).
 * 4. **Venue reads counted per client.** The fields that call a venue (`VENUE_FIELDS`) count
 *    against the caller's venue-read limit ({@link limitVenueFields}): wrapped in the built schema,
 *    because a type-graphql middleware would put every plain field back on a resolver call.
 *
 * Which fields have resolvers of their own is read from type-graphql's metadata
 * (`getMetadataStorage`): nothing else tells a plain property from a field resolver. A schema is
 * finalized once (a second pass would wrap its resolvers twice).
 */
export function finalizeSchema(
  schema: GraphQLSchema,
  metadata: TypeGraphqlMetadata = getMetadataStorage(),
): FinalizedSchema {
  if (finalized.has(schema)) throw new Error('finalizeSchema: this schema is finalized already');
  finalized.add(schema);
  checkSubscriptionArgsOnSubscribe(schema);
  const resolvedFields = fieldsWithResolvers(metadata);
  usePropertyReads(schema, metadata, resolvedFields);
  callEventResolversDirectly(schema, metadata);
  limitVenueFields(schema);
  return { resolvedFields };
}

function checkSubscriptionArgsOnSubscribe(schema: GraphQLSchema): void {
  for (const field of Object.values(schema.getSubscriptionType()?.getFields() ?? {})) {
    const subscribe = field.subscribe;
    if (!subscribe) continue;
    field.subscribe = (source, args, context, info) => {
      refuseUnstorableArgs(args as Record<string, unknown>);
      return subscribe(source, args, context, info);
    };
  }
}

function fieldsWithResolvers(m: TypeGraphqlMetadata): Set<string> {
  const names = new Map<unknown, string>([...m.objectTypes, ...m.interfaceTypes].map((t) => [t.target, t.name]));
  const keys = new Set<string>();
  for (const fr of m.fieldResolvers) {
    const type = names.get(fr.getObjectType?.());
    // A resolver whose type cannot be named would make its field look plain: refuse to guess.
    if (type === undefined) throw new Error(`field resolver ${fr.schemaName}: its object type is not registered`);
    keys.add(`${type}.${fr.schemaName}`);
  }
  return keys;
}

function usePropertyReads(schema: GraphQLSchema, m: TypeGraphqlMetadata, resolved: ReadonlySet<string>): void {
  if (m.middlewares.length > 0 || m.authorizedFields.length > 0) return;
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]);
  // A field renamed in the schema reads a property of another name: its resolver stays.
  const renamed = new Set(m.fields.filter((f) => f.name !== f.schemaName).map((f) => f.schemaName));
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__') || roots.has(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (!resolved.has(`${type.name}.${field.name}`) && !renamed.has(field.name)) field.resolve = undefined;
    }
  }
}

type SubscriptionMetadata = TypeGraphqlMetadata['subscriptions'][number];

function callEventResolversDirectly(schema: GraphQLSchema, m: TypeGraphqlMetadata): void {
  if (m.middlewares.length > 0 || m.authorizedFields.length > 0) return;
  const fields = schema.getSubscriptionType()?.getFields() ?? {};
  const instances = new Map<SubscriptionMetadata['target'], Record<string, (...params: unknown[]) => unknown>>();
  for (const def of m.subscriptions) {
    const field = fields[def.schemaName];
    if (!field || def.roles !== undefined || (def.middlewares?.length ?? 0) > 0) continue;
    const params = [...(def.params ?? [])].sort((a, b) => a.index - b.index);
    const direct = params.every(
      (p) => p.kind === 'args' || p.kind === 'arg' || (p.kind === 'root' && !p.propertyName && untyped(p.getType?.())),
    );
    if (!direct) continue;
    let instance = instances.get(def.target);
    if (!instance) {
      instance = new (def.target as new () => Record<string, (...params: unknown[]) => unknown>)();
      instances.set(def.target, instance);
    }
    const target = instance;
    const method = def.methodName;
    const pick = (root: unknown, args: Record<string, unknown>): unknown[] =>
      params.map((p) => (p.kind === 'root' ? root : p.kind === 'args' ? args : args[(p as { name: string }).name]));
    field.resolve = (root, args: Record<string, unknown>): unknown => target[method](...pick(root, args));
  }
}

/** A `@Root()` parameter type-graphql hands over as it is (no class to convert the event to). */
function untyped(type: unknown): boolean {
  return type === undefined || type === Object;
}
