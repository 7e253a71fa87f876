/**
 * The key a service is provided under: its class, or a named token for a value
 * that has no class of its own (a client interface, a callback registry).
 */
export type Token<T> = (abstract new (...args: never) => T) | ServiceToken<T>;

/** A named token: `new ServiceToken<PaymentsClient>('funding.payments')`. */
export class ServiceToken<T> {
  /** Phantom: ties the token to the type of what it provides. */
  declare readonly provides?: T;

  constructor(readonly name: string) {}

  toString(): string {
    return this.name;
  }
}

/** What resolvers, loaders and module factories ask for services through. */
export interface ServiceLocator {
  /** The service provided under `token`; throws when no module provides it. A property: destructure it freely. */
  readonly get: <T>(token: Token<T>) => T;
}

export function tokenName(token: Token<unknown>): string {
  return token instanceof ServiceToken ? token.name : token.name;
}

/**
 * The process's services, keyed by token, each provided once by one module.
 * Written only while the composition root builds the modules in registry order.
 */
export class ServiceContainer implements ServiceLocator {
  private readonly entries = new Map<Token<unknown>, { value: unknown; module: string }>();

  provide<T>(token: Token<T>, value: T, module: string): void {
    const existing = this.entries.get(token);
    if (existing) {
      throw new Error(`${module}: ${tokenName(token)} is already provided by ${existing.module}`);
    }
    this.entries.set(token, { value, module });
  }

  has(token: Token<unknown>): boolean {
    return this.entries.has(token);
  }

  readonly get = <T>(token: Token<T>): T => {
    const entry = this.entries.get(token);
    if (!entry) throw new Error(`no module provides ${tokenName(token)}`);
    return entry.value as T;
  };
}
