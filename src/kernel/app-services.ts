import type { ServiceLocator } from './container';
import type { LoaderLocator } from './loaders';
import type { ModuleDefinition } from './module';
import type { Platform } from './platform';

/**
 * The running process as resolvers, the HTTP layer and tests see it: the
 * platform, every module's services (`get`), and the hooks of its lifecycle.
 * Built by the composition root (`src/services.ts`).
 */
export interface AppServices extends Platform, ServiceLocator {
  /** The modules, in registry (dependency) order. */
  readonly modules: readonly ModuleDefinition[];
  /** The DataLoaders of a new request (each set is built on first use). */
  readonly requestLoaders: () => LoaderLocator;
  /** Health turns to shutting down; called first thing on a graceful stop. */
  readonly markShuttingDown: () => void;
  /** Closes the live venue clients (their trade polling and connection pools); once the tasks stopped. */
  readonly closeVenues: () => Promise<void>;
}
