import type { ServiceLocator } from './container';

/**
 * A domain's per-request DataLoaders: built on first use in a request, from the
 * process's services and the request's other loader sets (a set may batch
 * through another's loaders). Declared in the module manifest.
 */
export interface LoaderSet<T> {
  readonly name: string;
  create(services: ServiceLocator, loaders: LoaderLocator): T;
}

/** The loaders a set builds: `LoadersOf<typeof eventsLoaders>`. */
export type LoadersOf<S> = S extends LoaderSet<infer T> ? T : never;

/** What resolvers ask for loaders through: `ctx.loaders.get(eventsLoaders)`. */
export interface LoaderLocator {
  readonly get: <T>(set: LoaderSet<T>) => T;
}

/** Defines a loader set: `defineLoaders('events', (services) => ({ marketsByEventId: new DataLoader(…) }))`. */
export function defineLoaders<T>(
  name: string,
  create: (services: ServiceLocator, loaders: LoaderLocator) => T,
): LoaderSet<T> {
  return { name, create };
}

/** The loaders of one request. A set is built when first asked for, so a request pays only for what it uses. */
export class RequestLoaders implements LoaderLocator {
  private readonly built = new Map<LoaderSet<unknown>, unknown>();

  constructor(
    private readonly services: ServiceLocator,
    private readonly declared: ReadonlySet<LoaderSet<unknown>>,
  ) {}

  readonly get = <T>(set: LoaderSet<T>): T => {
    let loaders = this.built.get(set) as T | undefined;
    if (loaders === undefined) {
      if (!this.declared.has(set)) throw new Error(`loader set ${set.name} is not declared by any module`);
      loaders = set.create(this.services, this);
      this.built.set(set, loaders);
    }
    return loaders;
  };
}
