import http from 'node:http';
import { startWaitingServer, type WaitingServer } from '../../../src/http/waiting-server';

/** The process listens before the app is built: liveness at once; readiness and the rest 503 until the app is there. */
describe('the waiting server (before the app takes the port)', () => {
  let waiting: WaitingServer;
  afterEach(async () => {
    await waiting.close();
  });

  it('answers /health 200 (starting), /health/ready 503 with the reason, the rest 503 with Retry-After', async () => {
    waiting = await startWaitingServer({ port: 0, host: '127.0.0.1' }, 'starting: loading the app', '1.2.3');
    const live = await fetch(`${waiting.url}/health`);
    expect(live.status).toBe(200);
    expect(await live.json()).toMatchObject({ status: 'starting', version: '1.2.3' });
    const ready = await fetch(`${waiting.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'not_ready', reasons: ['starting: loading the app'] });
    const other = await fetch(`${waiting.url}/events`);
    expect(other.status).toBe(503);
    expect(other.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await other.json()).toMatchObject({ error: 'unavailable' });
  });

  it('names a new reason once told (waiting for another process to migrate)', async () => {
    waiting = await startWaitingServer({ port: 0, host: '127.0.0.1' }, 'starting', '1.2.3');
    waiting.setReason('migrations: none of 12 applied');
    const ready = await fetch(`${waiting.url}/health/ready`);
    expect(((await ready.json()) as { reasons: string[] }).reasons).toEqual(['migrations: none of 12 applied']);
  });

  it('hands the same port over to the app, open keep-alive connections included', async () => {
    waiting = await startWaitingServer({ port: 0, host: '127.0.0.1' }, 'starting', '1.2.3');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<{ status: number; body: string; socket: unknown }>((resolve, reject) => {
        http
          .get(`${waiting.url}${path}`, { agent }, (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body, socket: res.socket }));
          })
          .on('error', reject);
      });
    try {
      const before = await get('/health/ready');
      expect(before.status).toBe(503);
      waiting.handOver((req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`app ${req.url}`));
      const after = await get('/health/ready');
      expect(after).toMatchObject({ status: 200, body: 'app /health/ready' });
      expect(after.socket).toBe(before.socket);
    } finally {
      agent.destroy();
    }
  });
});
