import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { adoptServerPrototypes, createHttpServer } from '../../../src/http/server-classes';
import { startWaitingServer, type WaitingServer } from '../../../src/http/waiting-server';

const BASE = { request: express.request, response: express.response };

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * The server's requests and responses are made with the app's prototypes: Express then leaves
 * each request's prototype as it is (changing it per request cost the young generation a tenth to
 * two fifths of every allocation, promoted, and a one-middleware app 4.4× its throughput).
 */
describe("the server's request and response classes", () => {
  let server: http.Server | undefined;
  let waiting: WaitingServer | undefined;
  afterEach(async () => {
    if (server) await close(server);
    await waiting?.close();
    server = undefined;
    waiting = undefined;
  });

  it("makes requests and responses with the app's prototypes, which Express then does not change", async () => {
    const app = express();
    const seen: { before: boolean; inApp: boolean; changes: number; app: unknown }[] = [];
    const setPrototypeOf = jest.spyOn(Object, 'setPrototypeOf');
    app.get('/who', (req, res) => {
      const entry = seen[seen.length - 1];
      entry.inApp = Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response;
      entry.app = req.app;
      // Express's own methods, from the adopted prototypes: req.get, res.status, res.json.
      res.status(201).json({ host: req.get('host') !== undefined, path: req.path });
    });
    server = createHttpServer({}, (req, res) => {
      seen.push({ before: Object.getPrototypeOf(req) === app.request, inApp: false, changes: 0, app: undefined });
      const calls = setPrototypeOf.mock.calls.length;
      res.on('finish', () => {
        // Express still calls Object.setPrototypeOf; with the prototype already in place it changes nothing.
        const made = setPrototypeOf.mock.calls.slice(calls);
        seen[seen.length - 1].changes = made.filter(
          ([o, p]) => (o === req || o === res) && p !== Object.getPrototypeOf(o),
        ).length;
      });
      app(req, res);
    });
    try {
      expect(adoptServerPrototypes(server, app, BASE)).toBe(true);
      const url = await listen(server);
      const res = await fetch(`${url}/who`);
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ host: true, path: '/who' });
      expect(seen).toEqual([{ before: true, inApp: true, changes: 0, app }]);
    } finally {
      setPrototypeOf.mockRestore();
    }
  });

  it('is still an IncomingMessage and a ServerResponse, for anything that checks', async () => {
    const kinds: boolean[] = [];
    server = createHttpServer({}, (req, res) => {
      kinds.push(req instanceof http.IncomingMessage, res instanceof http.ServerResponse);
      res.end('ok');
    });
    const url = await listen(server);
    expect(await (await fetch(url)).text()).toBe('ok');
    expect(kinds).toEqual([true, true]);
  });

  it('gives each server classes of its own: two apps in one process keep their own `app`', async () => {
    const apps = [express(), express()];
    const servers = apps.map((app) => createHttpServer({}, app));
    try {
      apps.forEach((app, i) => {
        adoptServerPrototypes(servers[i], app, BASE);
        app.get('/n', (req, res) => res.json({ same: req.app === app, n: i }));
      });
      const urls = await Promise.all(servers.map(listen));
      const answers = await Promise.all(urls.map(async (u) => (await fetch(`${u}/n`)).json()));
      expect(answers).toEqual([
        { same: true, n: 0 },
        { same: true, n: 1 },
      ]);
    } finally {
      await Promise.all(servers.map(close));
    }
  });

  it("leaves a server it did not make as it is (Express sets each request's prototype, as before)", async () => {
    const app = express();
    const before = app.request;
    server = http.createServer(app);
    expect(adoptServerPrototypes(server, app, BASE)).toBe(false);
    expect(app.request).toBe(before);
    app.get('/x', (req, res) => res.json({ same: req.app === app }));
    const url = await listen(server);
    expect(await (await fetch(`${url}/x`)).json()).toEqual({ same: true });
  });

  it('serves the waiting answers first, then the app that takes the port over with the same classes', async () => {
    waiting = await startWaitingServer({ port: 0, host: '127.0.0.1' }, 'starting', '1.2.3');
    expect((await fetch(`${waiting.url}/health/ready`)).status).toBe(503);
    const app = express();
    app.get('/health/ready', (req, res) => res.status(200).json({ own: Object.getPrototypeOf(req) === app.request }));
    expect(adoptServerPrototypes(waiting.server, app, BASE)).toBe(true);
    waiting.handOver(app);
    const ready = await fetch(`${waiting.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ own: true });
  });
});
