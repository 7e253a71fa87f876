import type { EventSourceMessage } from 'eventsource-parser';
import type { AccountUpdatesSubscription } from '../../../schema/generated/operations';
import type { TestApp } from '../../support/app';
import { openSse, type SseReader } from '../../support/sse';

/** One account update as `GET /stream/account` sends it. */
export type AccountUpdate = AccountUpdatesSubscription['accountUpdates'];

/** An account stream of `user` on `app`, open (its subscription in place) when this resolves. */
export async function openAccountStream(app: TestApp, user: string, query = ''): Promise<SseReader> {
  const sse = await openSse(`${app.url}/stream/account${query}`, { headers: await app.bearer(user) });
  if (sse.status !== 200) throw new Error(`the account stream answered ${sse.status}`);
  return sse;
}

/** The update a message carries, checked against its `event:` and `id:`. */
export function updateOf(m: EventSourceMessage): AccountUpdate {
  const u = JSON.parse(m.data) as AccountUpdate;
  if (m.event !== u.kind || m.id !== u.id) throw new Error(`message ${m.event}/${m.id} carries ${u.kind}/${u.id}`);
  return u;
}

/** Takes messages until one of `kind` arrives (it included): the updates in the order they came. */
export async function takeThrough(sse: SseReader, kind: AccountUpdate['kind']): Promise<AccountUpdate[]> {
  const got: AccountUpdate[] = [];
  for (;;) {
    const [m] = await sse.take(1);
    const u = updateOf(m);
    got.push(u);
    if (u.kind === kind) return got;
  }
}

/** `kind` of each update, with the order's state for `order` updates (`order:filled`). */
export function shapes(updates: readonly AccountUpdate[]): string[] {
  return updates.map((u) => (u.kind === 'order' ? `order:${u.order!.state}` : u.kind));
}
