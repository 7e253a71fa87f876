import { RoutingService } from '../../../src/modules/routing/routing.service';
import { http, startTestApp, type TestApp } from '../../support/app';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { eventually } from '../../support/wait';

/** Route intents are deleted once their quote expired (ROUTE_QUOTE_TTL_SECONDS), in the background. */
const pinned = pinnedWorld();
const event = activeMatchedEvent(pinned.world);
const start = pinned.clock.ms;
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ROUTE_QUOTE_TTL_SECONDS: '30', ROUTE_INTENT_PURGE_MS: '20' }, {}, pinned);
});
afterAll(async () => {
  await app.close();
});

const route = async (userId: string) => {
  const r = await http(`${app.url}/route`, {
    method: 'POST',
    json: { coreId: event.id, userId, accountId: 'acct', size: 1 },
  });
  expect(r.status).toBe(200);
  return (r.body as { id: string }).id;
};
const stored = (id: string) => app.services.db.prisma.routeIntent.findUnique({ where: { id } });

it('keeps an intent while its quote holds and deletes it once expired, in the background', async () => {
  pinned.clock.ms = start;
  const early = await route('purge-early');
  pinned.clock.ms = start + 20_000;
  const late = await route('purge-late');
  // 10 s after the first expired: the background purge removes it, the second still holds.
  pinned.clock.ms = start + 40_000;
  await eventually(async () => ((await stored(early)) === null ? true : undefined), 'the expired intent purged');
  expect(await stored(late)).not.toBeNull();
  pinned.clock.ms = start + 51_000;
  await eventually(async () => ((await stored(late)) === null ? true : undefined), 'the second intent purged');
});

it('purgeExpired answers how many it deleted and leaves consumed intents', async () => {
  const svc = app.services.get(RoutingService);
  await svc.stop();
  pinned.clock.ms = start + 100_000;
  const a = await route('purge-a');
  const b = await route('purge-b');
  await app.services.db.prisma.routeIntent.update({ where: { id: b }, data: { orderId: `order-${b}` } });
  expect(await svc.purgeExpired()).toBe(0);
  pinned.clock.ms = start + 131_000;
  expect(await svc.purgeExpired()).toBe(1);
  expect(await stored(a)).toBeNull();
  expect(await stored(b)).not.toBeNull();
});
