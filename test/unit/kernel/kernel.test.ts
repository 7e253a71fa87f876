import { RequestLoaders, ServiceContainer, ServiceToken, defineLoaders } from '../../../src/kernel';
import { MODULES } from '../../../src/modules/registry';

class Clock {
  now = () => 42;
}
abstract class Store {
  abstract read(): string;
}
const GREETING = new ServiceToken<string>('test.greeting');

describe('ServiceContainer', () => {
  it('provides each token once, by class or by name, and names what is missing', () => {
    const c = new ServiceContainer();
    const clock = new Clock();
    c.provide(Clock, clock, 'time');
    c.provide(GREETING, 'hello', 'words');
    c.provide(Store, { read: () => 'x' }, 'storage');
    expect(c.get(Clock)).toBe(clock);
    expect(c.get(GREETING)).toBe('hello');
    expect(c.get(Store).read()).toBe('x');
    expect(() => c.provide(Clock, new Clock(), 'other')).toThrow('other: Clock is already provided by time');
    expect(() => c.get(new ServiceToken<number>('test.missing'))).toThrow('no module provides test.missing');
  });
});

describe('RequestLoaders', () => {
  const services = new ServiceContainer();
  services.provide(GREETING, 'hi', 'words');
  let built = 0;
  const words = defineLoaders('words', (s) => {
    built += 1;
    return { greeting: s.get(GREETING) };
  });
  const shout = defineLoaders('shout', (_s, loaders) => ({ loud: loaders.get(words).greeting.toUpperCase() }));
  const undeclared = defineLoaders('undeclared', () => ({}));

  it('builds a set on first use, once per request, from the services and the other sets', () => {
    built = 0;
    const request = new RequestLoaders(services, new Set([words, shout]));
    expect(built).toBe(0); // nothing is built before it is asked for
    expect(request.get(shout).loud).toBe('HI');
    expect(request.get(words)).toBe(request.get(words));
    expect(built).toBe(1);
    new RequestLoaders(services, new Set([words])).get(words); // another request: its own set
    expect(built).toBe(2);
  });

  it('refuses a set no module declares', () => {
    const request = new RequestLoaders(services, new Set([words]));
    expect(() => request.get(undeclared)).toThrow('loader set undeclared is not declared by any module');
  });
});

describe('the module registry', () => {
  it('names each module once', () => {
    const names = MODULES.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('lists each resolver and each loader set in exactly one module', () => {
    const resolvers = MODULES.flatMap((m) => m.resolvers ?? []);
    const loaders = MODULES.flatMap((m) => m.loaders ?? []);
    expect(resolvers.length).toBeGreaterThan(0);
    expect(new Set(resolvers).size).toBe(resolvers.length);
    expect(new Set(loaders).size).toBe(loaders.length);
  });

  it('provides each service token in exactly one module', () => {
    const tokens = MODULES.flatMap((m) => (m.services ?? []).map((p) => p.token));
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});
