import { startTestApp, type TestApp } from '../../support/app';
import { startFakeUpstream, type FakeUpstream, type UpstreamRequest } from '../../support/fake-upstream';
import type { PinnedWorld } from '../../support/pinned-world';

/**
 * An app over the pinned world whose venue_a live orders go to a fake execution
 * service (a 500 for every call until a test serves it), polled every 10 ms; `env`
 * adds settings. Close the app, then the service.
 */
export async function startWithExecutionService(
  pinned: PinnedWorld,
  env: Record<string, string> = {},
): Promise<{ app: TestApp; exec: FakeUpstream }> {
  const exec = await startFakeUpstream(() => ({ status: 500 }));
  const app = await startTestApp({ EXECUTION_SERVICE_URL: exec.url, EXECUTION_POLL_MS: '10', ...env }, {}, pinned);
  return { app, exec };
}

/** A request to the execution service that submits an order. */
export const isOrderCall = (r: UpstreamRequest) => r.method === 'POST' && r.path === '/orders';

/** Rows of one order and the user's ledger, for consistency checks. */
export async function orderRows(app: TestApp, orderId: string) {
  const prisma = app.services.db.prisma;
  const order = await prisma.order.findUnique({ where: { id: orderId } });
  const fills = await prisma.fill.findMany({ where: { orderId }, orderBy: { seq: 'asc' } });
  const entries = await prisma.ledgerEntry.findMany({
    where: { reference: `order:${orderId}` },
    orderBy: { id: 'asc' },
  });
  return { order, fills, entries };
}

/** A position equals its fills: size = Σ buys − Σ sells over every order of it. */
export async function positionMatchesFills(
  app: TestApp,
  positionId: string,
): Promise<{ size: bigint; fromFills: bigint }> {
  const prisma = app.services.db.prisma;
  const position = await prisma.position.findUniqueOrThrow({ where: { id: positionId } });
  const orders = await prisma.order.findMany({ where: { positionId }, include: { fills: true } });
  let fromFills = 0n;
  for (const o of orders) for (const f of o.fills) fromFills += o.side === 'buy' ? f.sizeMicros : -f.sizeMicros;
  return { size: position.sizeMicros, fromFills };
}
