import type { TestApp } from '../../support/app';

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
