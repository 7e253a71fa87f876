import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '../../../src/errors/app-error';
import { ExecutionServiceClient, outcomeUnknown } from '../../../src/modules/execution/execution-service.client';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream';

/**
 * Which failures of a submit leave an order's fate unknown (the service may have taken it) and which
 * do not (never sent, or refused by the service); a read has no effect at the service, so its
 * failures are never unknown.
 */
let exec: FakeUpstream;
let client: ExecutionServiceClient;
beforeAll(async () => {
  exec = await startFakeUpstream(() => ({ status: 500 }));
  client = new ExecutionServiceClient(exec.url, 5_000);
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

/** A local HTTP server on port 0 whose handler the test writes (for what the fake upstream cannot do). */
async function rawServer(onRequest: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(onRequest);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('ExecutionServiceClient failures', () => {
  it('a 5xx answer to a submit leaves the outcome unknown: a gateway or crash may answer after the take', async () => {
    for (const status of [500, 502, 503, 504]) {
      exec.handle(() => ({ status }));
      const err = await failure(client.submit(order, 'tok'));
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ code: 'upstream_error', message: `execution service answered ${status}` });
      expect(outcomeUnknown(err)).toBe(true);
    }
  });

  it('a 4xx answer to a submit is a plain 502: the service refused it', async () => {
    for (const status of [400, 401, 409, 422, 429]) {
      exec.handle(() => ({ status, body: { error: 'no' } }));
      const err = await failure(client.submit(order, 'tok'));
      expect(err).toMatchObject({ code: 'upstream_error', message: `execution service answered ${status}` });
      expect(outcomeUnknown(err)).toBe(false);
    }
  });

  it('a read failing any way is a plain 502: asking has no effect at the service', async () => {
    exec.handle(() => ({ status: 503 }));
    expect(outcomeUnknown(await failure(client.get('x', undefined)))).toBe(false);
    exec.handle(() => ({ body: { unexpected: true } }));
    const odd = await failure(client.get('x', undefined));
    expect(odd).toMatchObject({ code: 'upstream_error', message: 'execution service sent an unexpected answer' });
    expect(outcomeUnknown(odd)).toBe(false);
  });

  it('a submit written but not answered in time, or an unreadable 2xx, leaves the outcome unknown', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    // Holds its answer until the client has given up on it.
    exec.handle(async () => {
      await answered;
      return { body: { id: 'x', status: 'open' } };
    });
    const before = exec.requests.length;
    const timedOut = await failure(new ExecutionServiceClient(exec.url, 300).submit(order, 'tok'));
    answer();
    expect(timedOut).toMatchObject({ code: 'upstream_error', message: 'execution service timed out' });
    expect(outcomeUnknown(timedOut)).toBe(true);
    expect(exec.requests.length).toBe(before + 1); // it did reach the service
    exec.handle(() => ({ body: { unexpected: true } }));
    expect(outcomeUnknown(await failure(client.submit(order, 'tok')))).toBe(true);
  });

  it('the connection reset after the submit was written: the outcome is unknown', async () => {
    let received = 0;
    const server = await rawServer((req) => {
      received += 1;
      req.socket.destroy();
    });
    try {
      const err = await failure(new ExecutionServiceClient(server.url, 5_000).submit(order, 'tok'));
      expect(err).toMatchObject({ code: 'upstream_error', message: 'execution service connection failed' });
      expect(outcomeUnknown(err)).toBe(true);
      expect(received).toBe(1);
    } finally {
      await server.close();
    }
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
