import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '../../../src/errors/app-error';
import { ExecutionServiceClient, outcomeUnknown } from '../../../src/modules/execution/execution-service.client';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream';

/** Which failures of the execution service leave an order's fate unknown (it may have the order) and which do not. */
let exec: FakeUpstream;
let client: ExecutionServiceClient;
beforeAll(async () => {
  exec = await startFakeUpstream(() => ({ status: 500 }));
  client = new ExecutionServiceClient(exec.url, 300);
});
afterAll(async () => {
  await exec.close();
});

const order = {
  clientOrderId: 'o-1',
  userId: 'u',
  marketId: 'm',
  side: 'buy',
  outcome: 'yes',
  size: 1,
  orderType: 'market',
} as const;
const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('no error');
    },
    (err: unknown) => err,
  );

describe('ExecutionServiceClient failures', () => {
  it('a non-2xx answer is a plain 502: the service refused the call', async () => {
    exec.handle(() => ({ status: 500 }));
    const err = await failure(client.submit(order, 'tok'));
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'upstream_error', message: 'execution service answered 500' });
    expect(outcomeUnknown(err)).toBe(false);
  });

  it('a timeout or an unreadable 2xx leaves the outcome unknown', async () => {
    exec.handle(async () => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      return { body: { id: 'x', status: 'open' } };
    });
    const timedOut = await failure(client.submit(order, 'tok'));
    expect(timedOut).toMatchObject({ code: 'upstream_error', message: 'execution service timed out' });
    expect(outcomeUnknown(timedOut)).toBe(true);
    exec.handle(() => ({ body: { unexpected: true } }));
    const odd = await failure(client.get('x', undefined));
    expect(outcomeUnknown(odd)).toBe(true);
  });

  it('a connection refused is not unknown: nothing was sent', async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const err = await failure(new ExecutionServiceClient(`http://127.0.0.1:${port}`, 300).submit(order, undefined));
    expect(err).toMatchObject({ code: 'upstream_error', message: 'execution service is unreachable' });
    expect(outcomeUnknown(err)).toBe(false);
  });

  it('sends the Idempotency-Key order:<clientOrderId> on every submit', async () => {
    exec.handle(() => ({ body: { id: 'x', status: 'filled', fills: [{ price: 0.5, size: 1 }] } }));
    const before = exec.requests.length;
    await client.submit(order, 'tok');
    await client.submit(order, 'tok');
    expect(
      exec.requests.slice(before).map((r) => [r.method, r.path, r.headers['idempotency-key'], r.headers.authorization]),
    ).toEqual([
      ['POST', '/orders', 'order:o-1', 'Bearer tok'],
      ['POST', '/orders', 'order:o-1', 'Bearer tok'],
    ]);
  });
});
