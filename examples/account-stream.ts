/**
 * An EventSource consumer of `/stream/account`: the signed-in user's own order, fill, position and
 * balance changes, live and paper, each as soon as its transaction committed, in commit order.
 * `event:` is the update's `kind`; the field of that name carries it (`order`, `fill`, `position`,
 * `balance`), `mode` says which account (`live`, or `simulation`: the paper account). The stream is
 * live-only: after a dropped connection (the `eventsource` package reconnects by itself) it goes on
 * with new changes, so a screen reloads the portfolio once it is back.
 *
 *   node -r ./scripts/register.js examples/account-stream.ts USER_TOKEN [BASE_URL] [MODE]
 */
import { EventSource } from 'eventsource';
import type { AccountUpdatesSubscription } from '../schema/generated/operations';

/** One message of the account stream (typed from the subscription the route runs). */
export type AccountUpdate = AccountUpdatesSubscription['accountUpdates'];

export interface AccountFollower {
  close(): void;
}

/** Follows the caller's account updates (`mode`: one account only). */
export function followAccount(
  baseUrl: string,
  token: string,
  opts: { mode?: 'live' | 'simulation'; onUpdate(u: AccountUpdate): void; onError?(message: string): void },
): AccountFollower {
  const url = `${baseUrl}/stream/account${opts.mode ? `?mode=${opts.mode}` : ''}`;
  const source = new EventSource(url, {
    // The bearer token goes in a header, which the browser's EventSource cannot send: this one can.
    fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } }),
  });
  for (const kind of ['order', 'fill', 'position', 'balance'] as const)
    source.addEventListener(kind, (m) => opts.onUpdate(JSON.parse(String(m.data)) as AccountUpdate));
  source.addEventListener('error', (err) => opts.onError?.(err.message ?? 'stream error'));
  return { close: () => source.close() };
}

/** One line per update, as the script prints it. */
export function describeUpdate(u: AccountUpdate): string {
  switch (u.kind) {
    case 'order': {
      const o = u.order!;
      return `${u.mode} order ${o.id} ${o.side} ${o.requestedSize} ${o.outcome}: ${o.state}`;
    }
    case 'fill':
      return `${u.mode} fill of ${u.fill!.orderId}: ${u.fill!.size} at ${u.fill!.price}`;
    case 'position': {
      const p = u.position!;
      return `${u.mode} position ${p.marketId} ${p.outcome}: ${p.size} (${p.status})`;
    }
    case 'balance':
      return `${u.mode} balance: ${u.balance!.available} available, ${u.balance!.held} held`;
  }
}

if (require.main === module) {
  const [token, baseUrl = 'http://localhost:4000', mode] = process.argv.slice(2);
  if (!token) {
    process.stderr.write('usage: examples/account-stream.ts USER_TOKEN [BASE_URL] [live|simulation]\n');
    process.exit(2);
  }
  followAccount(baseUrl, token, {
    mode: mode as 'live' | 'simulation' | undefined,
    onUpdate: (u) => process.stdout.write(`${describeUpdate(u)}\n`),
    onError: (message) => process.stderr.write(`${message}\n`),
  });
}
