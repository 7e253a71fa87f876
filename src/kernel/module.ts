import type { RatePolicy } from '../auth/rate-limits';
import type { AppConfig } from '../config';
import type { SettingsSlice } from '../settings';
import type { ServiceLocator, Token } from './container';
import type { LoaderSet } from './loaders';
import type { Platform } from './platform';

/** What a module's factories, tasks and topic handlers are given: the platform and the services built so far. */
export interface ModuleScope extends Platform, ServiceLocator {}

/** How one service is built (declared in a manifest's `services`, built in order). */
export interface ServiceProvider<T = unknown> {
  readonly token: Token<T>;
  build(scope: ModuleScope): T | Promise<T>;
}

/** `provide(EventsService, ({ db, memo }) => new EventsService(db.prisma, memo('events', CATALOG_CHANGED_TOPIC)))`. */
export function provide<T>(token: Token<T>, build: (scope: ModuleScope) => T | Promise<T>): ServiceProvider<T> {
  return { token, build };
}

/**
 * Background work of a module: started once every module is built, in registry
 * order; stopped in reverse order before the platform closes.
 *
 * Where several processes share a database, a task is either per-process (the
 * default: each process keeps its own caches, indexes, subscriptions, buffers) or
 * `exclusive`: it runs in one process at a time, the holder of its lease
 * (`src/infra/lease.ts`), and not at all in an API-only replica (`WORKERS=off`).
 * When the holder dies a survivor takes the lease and starts the task, so
 * `start` and `stop` of an exclusive task may run several times in one process.
 */
export interface BackgroundTask {
  readonly name: string;
  /** Runs once across the deployment (under a lease) rather than in every process. */
  readonly exclusive?: boolean;
  start?(scope: ModuleScope): void | Promise<void>;
  stop?(scope: ModuleScope): void | Promise<void>;
  /**
   * Start-up work that continues after `start` returned (an index built in the
   * background): readiness (`/health/ready`) answers 503 naming the task until it resolves.
   */
  ready?(scope: ModuleScope): Promise<unknown>;
}

/** A handler of a pub/sub topic, subscribed when the module is built (in every process). */
export interface TopicSubscription {
  readonly topic: string;
  handle(scope: ModuleScope, message: unknown): void | Promise<void>;
}

/** `onTopic(API_KEY_REVOKED_TOPIC, (s, m: RevokedMessage) => s.get(ApiKeysService).forget(m.keyHash))`. */
export function onTopic<T>(
  topic: string,
  handle: (scope: ModuleScope, message: T) => void | Promise<void>,
): TopicSubscription {
  return { topic, handle: (scope, message) => handle(scope, message as T) };
}

/** A type-graphql resolver class. */
export type ResolverClass = abstract new () => object;

/**
 * A domain module's manifest: everything the rest of the process needs to know
 * of it. The registry (`src/modules/registry.ts`) lists the manifests in
 * dependency order; schema building, the context, wiring, start and shutdown
 * read only the registry.
 */
export interface ModuleDefinition {
  readonly name: string;
  /**
   * The environment variables it reads (its `<name>.settings.ts`): src/config.ts composes every
   * module's slice, and docs/configuration.md and `.env.example` are generated from them.
   */
  readonly settings?: Pick<SettingsSlice, 'name' | 'title' | 'variables'>;
  /** Its GraphQL resolvers (the schema is built from every module's). */
  readonly resolvers?: readonly ResolverClass[];
  /** Its services, built in this order from the platform and earlier modules' services. */
  readonly services?: readonly ServiceProvider[];
  /** Its per-request DataLoader sets. */
  readonly loaders?: readonly LoaderSet<unknown>[];
  readonly tasks?: readonly BackgroundTask[];
  readonly topics?: {
    /** Topics its services publish (a subscription or a REST cache may name only a published topic). */
    readonly publishes?: readonly string[];
    readonly subscribes?: readonly TopicSubscription[];
  };
  /** Its per-client rate-limit policies, by name (`ctx.services.rateLimits.consume(name, clientId)`). */
  readonly rateLimits?: (config: AppConfig) => Readonly<Record<string, RatePolicy>>;
}

/** Identity with checking: a manifest. */
export function defineModule(definition: ModuleDefinition): ModuleDefinition {
  return definition;
}
