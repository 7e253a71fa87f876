import type { AppConfig } from './config';
import {
  ServiceContainer,
  RequestLoaders,
  tokenName,
  type AppServices,
  type BackgroundTask,
  type LoaderSet,
  type ModuleDefinition,
  type ModuleScope,
  type Token,
} from './kernel';
import { HTTP_CACHE_ROUTES } from './modules/admin';
import { MODULES } from './modules/registry';
import { openPlatform, type OpenedPlatform, type ServiceOverrides } from './open-platform';
import { etagCacheControl } from '../rest-adapter/express-router';
import { ROUTES } from '../rest-adapter/routes';

export type { AppServices } from './kernel';
export { embeddedTemplate, type ServiceOverrides } from './open-platform';

/**
 * The composition root. Opens what the process shares (database, infra, venues:
 * the platform), builds every module's services in registry order, and
 * subscribes the modules' topic handlers and memos. The caller starts the
 * modules' background tasks with {@link startBackground} and owns shutdown
 * through {@link closeServices}.
 */
export async function createServices(config: AppConfig, overrides: ServiceOverrides = {}): Promise<AppServices> {
  const modules = overrides.modules ?? MODULES;
  const started = performance.now();
  const platform = await openPlatform(config, overrides, modules);
  const opened = performance.now();
  platform.logger.debug(
    {
      phase: 'platform: database (migrations check), infra, leases, simulated world',
      ms: Math.round(opened - started),
    },
    'start-up phase',
  );
  try {
    const services = await buildModules(platform, modules);
    platform.logger.debug(
      { phase: 'modules built, topics subscribed', ms: Math.round(performance.now() - opened) },
      'start-up phase',
    );
    return services;
  } catch (err) {
    // Nothing runs yet: close what was opened (a database handed in stays its owner's).
    await platform.owner.stop();
    await platform.leases.close();
    await platform.closeVenues();
    await platform.infra.close();
    if (!overrides.db) await platform.db.close();
    throw err;
  }
}

async function buildModules(platform: OpenedPlatform, modules: readonly ModuleDefinition[]): Promise<AppServices> {
  const container = new ServiceContainer();
  // The REST adapter's route table reaches the admin cache policy from here, not through a service.
  container.provide(HTTP_CACHE_ROUTES, { routes: () => ROUTES, etagCacheControl }, 'composition root');
  const declaredLoaders = new Set<LoaderSet<unknown>>(modules.flatMap((m) => m.loaders ?? []));
  const services: AppServices = {
    ...platform,
    modules,
    get: <T>(token: Token<T>) => container.get(token),
    requestLoaders: () => new RequestLoaders(services, declaredLoaders),
  };
  for (const m of modules) {
    // While a module is built it sees only the modules above it: the registry order is checked here.
    const scope: ModuleScope = { ...services, get: (token) => resolveFor(m, container, token) };
    for (const provider of m.services ?? []) container.provide(provider.token, await provider.build(scope), m.name);
  }
  await subscribeTopics(services, modules);
  return services;
}

function resolveFor<T>(m: ModuleDefinition, container: ServiceContainer, token: Token<T>): T {
  if (!container.has(token)) {
    throw new Error(`module ${m.name} needs ${tokenName(token)}, which no module above it in the registry provides`);
  }
  return container.get(token);
}

/**
 * Subscribes every module's topic handlers and memos, after checking that each
 * topic a handler, a memo or a cached REST route waits for is one a module publishes.
 */
async function subscribeTopics(services: AppServices, modules: readonly ModuleDefinition[]): Promise<void> {
  const published = new Set(modules.flatMap((m) => m.topics?.publishes ?? []));
  const awaited = [
    ...modules.flatMap((m) => (m.topics?.subscribes ?? []).map((s) => ({ topic: s.topic, by: `module ${m.name}` }))),
    ...services.memos().map((m) => ({ topic: m.invalidatedBy, by: `memo ${m.name}` })),
    ...ROUTES.flatMap((r) => (r.cache ? [{ topic: r.cache.invalidatedBy, by: `route ${r.id}` }] : [])),
  ];
  const orphan = awaited.find((a) => !published.has(a.topic));
  if (orphan) throw new Error(`${orphan.by} waits for topic ${orphan.topic}, which no module publishes`);
  const { pubsub } = services.infra;
  for (const m of modules) {
    for (const s of m.topics?.subscribes ?? []) {
      await pubsub.subscribe(s.topic, (message) => {
        void Promise.resolve(s.handle(services, message)).catch((err: unknown) =>
          services.logger.error({ err, topic: s.topic, module: m.name }, 'topic handler failed'),
        );
      });
    }
  }
  for (const { memo, invalidatedBy } of services.memos())
    await pubsub.subscribe(invalidatedBy, () => memo.invalidate());
}

/** The lease of an exclusive task: one name per task across the deployment. */
function leaseName(m: ModuleDefinition, task: BackgroundTask): string {
  return `${m.name}:${task.name}`;
}

/**
 * Starts every module's background tasks, in registry order (the catalog is seeded
 * before trades flow). A per-process task starts here; an exclusive one is handed
 * to its lease (it starts here when this process takes the lease, now or when its
 * holder dies), and not at all with `WORKERS=off`. A task's `ready` is start-up
 * work readiness waits for.
 */
export async function startBackground(services: AppServices): Promise<void> {
  const { config, leases, readiness, logger } = services;
  for (const m of services.modules) {
    for (const task of m.tasks ?? []) {
      if (task.exclusive) {
        if (!config.roles.workers) continue;
        await leases.hold(leaseName(m, task), {
          start: () => task.start?.(services),
          stop: () => task.stop?.(services),
        });
        continue;
      }
      const started = performance.now();
      await task.start?.(services);
      logger.debug(
        { phase: `task ${m.name}: ${task.name}`, ms: Math.round(performance.now() - started) },
        'start-up phase',
      );
      if (task.ready) {
        const done = readiness.begin(task.name);
        task
          .ready(services)
          .catch((err: unknown) => logger.error({ err, module: m.name, task: task.name }, 'start-up work failed'))
          .finally(done);
      }
    }
  }
}

/**
 * Stops the modules' background tasks in reverse registry order (each module's
 * in reverse too), then closes the platform: the infra, then the database.
 * A task that fails to stop is logged, and the others still stop.
 */
export async function closeServices(services: AppServices): Promise<void> {
  services.markShuttingDown();
  const failures: unknown[] = [];
  for (const m of [...services.modules].reverse()) {
    for (const task of [...(m.tasks ?? [])].reverse()) {
      try {
        // An exclusive task stops where it runs, and its lease is given up for another process to take.
        if (task.exclusive) await services.leases.release(leaseName(m, task));
        else await task.stop?.(services);
      } catch (err) {
        services.logger.error({ err, module: m.name, task: task.name }, 'a background task failed to stop');
        failures.push(err);
      }
    }
  }
  await services.leases.close();
  // Last of what may claim work: its row goes, so nothing waits for this process's lease to lapse.
  await services.owner.stop();
  // The live venues' pollers and pools: no trade arrives once the tasks have stopped.
  await services.closeVenues();
  await services.infra.close();
  await services.db.close();
  if (failures.length > 0) throw new AggregateError(failures, 'some background tasks failed to stop');
}
