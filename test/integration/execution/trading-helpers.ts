import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { TestApp } from '../../support/app';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';

/** An execution stream's message, its JSON data parsed. */
export interface StreamEvent {
  event: string;
  id: string;
  data: {
    id: string;
    event: string;
    seq: number;
    orderId: string;
    replayed: boolean;
    order: Record<string, unknown> & {
      id: string;
      state: string;
      filledSize: number;
      notional: number;
      fees: number;
      total: number;
      persisted: boolean;
    };
    quote: Record<string, unknown> | null;
    fill: { seq: number; price: number; size: number; fee: number; filledSize: number } | null;
    position: {
      id: string;
      status: string;
      size: number;
      avgPrice: number | null;
      costBasis: number;
      realizedPnl: number;
      fees: number;
    } | null;
    balance: { available: number; held: number } | null;
    error: { code: string; message: string } | null;
  };
}

export interface StreamResult {
  status: number;
  contentType: string;
  /** Parsed SSE messages (when the answer is a stream). */
  events: StreamEvent[];
  /** The JSON body (when the answer is not a stream). */
  body: { error?: string; message?: string } | undefined;
}

/**
 * POSTs and reads the whole answer: an SSE stream is read chunk by chunk with
 * a spec-conformant parser until the server ends it; anything else as JSON.
 */
export async function postStream(
  url: string,
  json: unknown,
  headers: Record<string, string> = {},
): Promise<StreamResult> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { accept: 'text/event-stream', 'content-type': 'application/json', ...headers },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const contentType = res.headers.get('content-type') ?? '';
  if (!contentType.startsWith('text/event-stream')) {
    const text = await res.text();
    return {
      status: res.status,
      contentType,
      events: [],
      body: text ? (JSON.parse(text) as StreamResult['body']) : undefined,
    };
  }
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (m) => messages.push(m) });
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
    parser.feed(decoder.decode(chunk, { stream: true }));
  return {
    status: res.status,
    contentType,
    events: messages.map((m) => ({
      event: m.event ?? 'message',
      id: m.id ?? '',
      data: JSON.parse(m.data) as StreamEvent['data'],
    })),
    body: undefined,
  };
}

/** Credits a user's USD balance through the ledger (as a settled deposit would). */
export async function fund(
  app: TestApp,
  userId: string,
  usd: number,
  key = `test-deposit:${userId}:${usd}:${Math.random()}`,
): Promise<void> {
  await app.services.get(LedgerService).postAll([
    {
      userId,
      kind: 'deposit',
      available: BigInt(Math.round(usd * 1e6)),
      held: 0n,
      reference: 'test',
      idempotencyKey: key,
    },
  ]);
}

/** The event names of a stream, in order. */
export const names = (r: StreamResult) => r.events.map((e) => e.event);

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
