import { loadConfig } from '../../../src/config';
import { createLogger } from '../../../src/http/logger';
import { ServiceToken, defineModule, onTopic, provide, type ModuleDefinition } from '../../../src/kernel';
import { CATALOG_CHANGED_TOPIC } from '../../../src/modules/events/events.models';
import { closeServices, createServices, startBackground } from '../../../src/services';
import { openTestDatabase } from '../../support/db';
import { waitFor } from '../../support/wait';

/** The REST route table caches catalog reads: any module list must publish the catalog topic. */
const catalogPublisher = defineModule({ name: 'catalog', topics: { publishes: [CATALOG_CHANGED_TOPIC] } });

const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SIM_TRADE_RATE: '0' });

/** The services of these modules over a fresh database (closed again when they cannot be built). */
async function build(modules: ModuleDefinition[]) {
  const db = await openTestDatabase();
  try {
    return await createServices(config, {
      modules: [catalogPublisher, ...modules],
      db,
      logger: createLogger('silent'),
      redisKeyPrefix: `test:${Math.random()}:`,
    });
  } catch (err) {
    await db.close();
    throw err;
  }
}

class Counter {
  value = 0;
}
const DOUBLE = new ServiceToken<() => number>('test.double');

describe('the composition root', () => {
  it('builds modules in registry order: a module sees the services of the modules above it', async () => {
    const services = await build([
      defineModule({ name: 'counting', services: [provide(Counter, () => new Counter())] }),
      defineModule({
        name: 'doubling',
        services: [
          provide(DOUBLE, ({ get }) => {
            const counter = get(Counter);
            return () => counter.value * 2;
          }),
        ],
      }),
    ]);
    try {
      services.get(Counter).value = 21;
      expect(services.get(DOUBLE)()).toBe(42);
    } finally {
      await closeServices(services);
    }
  });

  it('refuses a module that needs a service only a module below it provides', async () => {
    const doubling = defineModule({
      name: 'doubling',
      services: [
        provide(
          DOUBLE,
          ({ get }) =>
            () =>
              get(Counter).value,
        ),
      ],
    });
    const early = defineModule({
      name: 'early',
      services: [provide(new ServiceToken<number>('test.early'), ({ get }) => get(DOUBLE)())],
    });
    await expect(build([early, doubling])).rejects.toThrow(
      'module early needs test.double, which no module above it in the registry provides',
    );
  });

  it('refuses a subscription to a topic no module publishes', async () => {
    const listener = defineModule({
      name: 'listener',
      topics: { subscribes: [onTopic('nobody.talks', () => undefined)] },
    });
    await expect(build([listener])).rejects.toThrow('module listener waits for topic nobody.talks');
  });

  it('refuses the same rate-limit policy declared by two modules', async () => {
    const policy = () => ({ discover: { limit: 1, windowMs: 1000 } });
    await expect(
      build([defineModule({ name: 'a', rateLimits: policy }), defineModule({ name: 'b', rateLimits: policy })]),
    ).rejects.toThrow('module b: rate-limit policy discover is declared twice');
  });

  it('delivers a published topic to the subscribed modules, and clears memos named after it', async () => {
    const seen: unknown[] = [];
    const services = await build([
      defineModule({
        name: 'listener',
        services: [
          provide(Counter, ({ memo }) =>
            Object.assign(new Counter(), { memo: memo('listener', CATALOG_CHANGED_TOPIC) }),
          ),
        ],
        topics: { subscribes: [onTopic<{ at: number }>(CATALOG_CHANGED_TOPIC, (_s, m) => void seen.push(m))] },
      }),
    ]);
    try {
      const [entry] = services.memos();
      expect(entry).toMatchObject({ name: 'listener', invalidatedBy: CATALOG_CHANGED_TOPIC });
      await entry.memo.get('k', async () => 1);
      await services.infra.pubsub.publish(CATALOG_CHANGED_TOPIC, { at: 7 });
      await waitFor(() => seen.length > 0, 'the listener hears the message');
      expect(seen).toEqual([{ at: 7 }]);
      expect(await entry.memo.get('k', async () => 2)).toBe(2); // the memo was cleared
    } finally {
      await closeServices(services);
    }
  });

  it('starts tasks top to bottom, stops them bottom to top; a failed stop does not keep others running', async () => {
    const log: string[] = [];
    const task = (name: string, failStop = false) => ({
      name,
      start: () => void log.push(`start ${name}`),
      stop: () => {
        log.push(`stop ${name}`);
        if (failStop) throw new Error(`${name} would not stop`);
      },
    });
    const services = await build([
      defineModule({ name: 'first', tasks: [task('a'), task('b', true)] }),
      defineModule({ name: 'second', tasks: [task('c')] }),
    ]);
    await startBackground(services);
    expect(services.shuttingDown()).toBe(false);
    await expect(closeServices(services)).rejects.toThrow('some background tasks failed to stop');
    expect(services.shuttingDown()).toBe(true);
    expect(log).toEqual(['start a', 'start b', 'start c', 'stop c', 'stop b', 'stop a']);
  });
});
