import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { SseFrame, SseStream } from '../../../src/http/sse';

/** A real HTTP server whose one response is an SseStream handed to the test. */
async function serve(opts: ConstructorParameters<typeof SseStream>[1] = {}) {
  let resolveStream!: (s: SseStream) => void;
  const stream = new Promise<SseStream>((r) => (resolveStream = r));
  let socket: net.Socket | undefined;
  const server = http.createServer((_req, res) => {
    socket = res.socket ?? undefined;
    const sse = new SseStream(res, { heartbeatMs: 60_000, ...opts });
    sse.open();
    resolveStream(sse);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    stream,
    socket: () => socket!,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * Reads a whole response on a bare socket with the given request line: until the connection closes
 * or, chunked, until the last chunk (the stream keeps its connection alive after it).
 */
function rawClient(port: number, requestLine: string) {
  const socket = net.connect(port, '127.0.0.1');
  socket.write(`${requestLine}\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n`);
  const chunks: Buffer[] = [];
  const ended = new Promise<string>((resolve) => {
    const done = () => {
      socket.destroy();
      resolve(Buffer.concat(chunks).toString());
    };
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (Buffer.concat(chunks).toString('latin1').endsWith('\r\n0\r\n\r\n')) done();
    });
    socket.on('close', done);
  });
  return { socket, ended };
}

function dechunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

function parse(text: string): EventSourceMessage[] {
  const out: EventSourceMessage[] = [];
  createParser({ onEvent: (m) => out.push(m) }).feed(text);
  return out;
}

describe('SseFrame: one message written as it is to every client', () => {
  it('is its bytes framed as one HTTP/1.1 chunk', () => {
    const frame = SseFrame.of('delta', 'venue_a:m:1', { seq: 1 });
    const text = 'event: delta\nid: venue_a:m:1\ndata: {"seq":1}\n\n';
    expect(frame.bytes.toString()).toBe(text);
    expect(frame.chunk.toString()).toBe(`${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`);
  });

  it('reaches an HTTP/1.1 client among other writes, in order, a valid chunked body', async () => {
    const s = await serve();
    try {
      const client = rawClient(s.port, 'GET / HTTP/1.1');
      const sse = await s.stream;
      const frame = SseFrame.of('delta', 'm:1', { n: 1 });
      sse.send('first', 'm:0', { n: 0 });
      sse.sendFrame(frame);
      sse.comment('between');
      sse.sendFrame(SseFrame.of('delta', 'm:2', { text: 'a\nb' }));
      sse.sendFrame(frame);
      sse.end();
      const raw = await client.ended;
      const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
      expect(head).toMatch(/transfer-encoding: chunked/i);
      const messages = parse(dechunk(raw.slice(head.length + 4)));
      expect(messages.map((m) => [m.event, m.id, m.data])).toEqual([
        ['first', 'm:0', '{"n":0}'],
        ['delta', 'm:1', '{"n":1}'],
        ['delta', 'm:2', '{"text":"a\\nb"}'],
        ['delta', 'm:1', '{"n":1}'],
      ]);
      expect(raw.endsWith('0\r\n\r\n')).toBe(true);
    } finally {
      await s.close();
    }
  });

  it('goes to an HTTP/1.0 client (no chunked encoding) as its plain bytes', async () => {
    const s = await serve();
    try {
      const client = rawClient(s.port, 'GET / HTTP/1.0');
      const sse = await s.stream;
      sse.sendFrame(SseFrame.of('delta', 'm:1', { n: 1 }));
      sse.end();
      const raw = await client.ended;
      expect(raw).not.toMatch(/transfer-encoding: chunked/i);
      expect(parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).map((m) => m.id)).toEqual(['m:1']);
    } finally {
      await s.close();
    }
  });

  it('a client that stops reading is dropped past the bound; one that catches up gets every frame', async () => {
    const drops: number[] = [];
    const s = await serve({ maxBufferBytes: 256 * 1024, onDrop: (unsent) => drops.push(unsent) });
    try {
      const client = rawClient(s.port, 'GET / HTTP/1.1');
      client.socket.pause();
      const sse = await s.stream;
      const frame = SseFrame.of('delta', 'm:1', { pad: 'x'.repeat(16 * 1024) });
      let written = 0;
      while (sse.sendFrame(frame)) written += 1;
      // The kernel's buffers take some; past them, what waits here and in the socket passes the bound.
      expect(sse.dropped).toBe(true);
      expect(drops).toHaveLength(1);
      expect(drops[0]).toBeGreaterThan(256 * 1024);
      client.socket.resume();
      await client.ended;
      expect(written).toBeGreaterThan(0);

      const slow = await serve({ maxBufferBytes: 8 * 1024 * 1024 });
      try {
        const reader = rawClient(slow.port, 'GET / HTTP/1.1');
        reader.socket.pause();
        const stream = await slow.stream;
        const frames = Array.from({ length: 200 }, (_, i) =>
          SseFrame.of('delta', `m:${i}`, { pad: 'y'.repeat(8 * 1024) }),
        );
        for (const f of frames) expect(stream.sendFrame(f)).toBe(true);
        stream.end();
        reader.socket.resume();
        const raw = await reader.ended;
        const ids = parse(dechunk(raw.slice(raw.indexOf('\r\n\r\n') + 4))).map((m) => m.id);
        expect(ids).toEqual(frames.map((_, i) => `m:${i}`));
      } finally {
        await slow.close();
      }
    } finally {
      await s.close();
    }
  });
});

describe("coalesce: one client's burst of messages in one socket write", () => {
  it("holds a turn's writes, made across its microtasks, in the socket until the turn ends; the end too", async () => {
    const s = await serve({ coalesce: true });
    try {
      const client = rawClient(s.port, 'GET / HTTP/1.1');
      const sse = await s.stream;
      const socket = s.socket();
      await new Promise((r) => setImmediate(r));
      // The socket's writes to the operating system (Node's stream hooks: one call, one system call).
      const writes: number[] = [];
      const sock = socket as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
      for (const hook of ['_write', '_writev'] as const) {
        const original = sock[hook].bind(socket);
        sock[hook] = (...args: unknown[]) => {
          writes.push(hook === '_writev' ? (args[0] as unknown[]).length : 1);
          return original(...args);
        };
      }
      const corked: number[] = [];
      // As an order's stream writes `submitted`, `fill`, `completed` and ends: one microtask each, frames
      // straight to the socket (the response's own writes cork the socket for their turn anyway).
      await Promise.resolve().then(async () => {
        sse.sendFrame(SseFrame.of('submitted', 'o:3', { n: 3 }));
        await Promise.resolve();
        sse.sendFrame(SseFrame.of('fill', 'o:4', { n: 4 }));
        await Promise.resolve();
        sse.sendFrame(SseFrame.of('completed', 'o:5', { n: 5 }));
        corked.push(socket.writableCorked, writes.length);
        sse.end();
      });
      // Held until the end (which flushes the socket): then everything left in one write.
      expect(corked).toEqual([1, 0]);
      await new Promise((r) => process.nextTick(r));
      expect(socket.writableCorked).toBe(0);
      expect(writes.length).toBe(1);
      expect(writes[0]).toBeGreaterThanOrEqual(4);
      const raw = await client.ended;
      const messages = parse(dechunk(raw.slice(raw.indexOf('\r\n\r\n') + 4)));
      expect(messages.map((m) => m.id)).toEqual(['o:3', 'o:4', 'o:5']);
    } finally {
      await s.close();
    }
  });

  it('is off by default: a fan-out frame goes to the socket at once', async () => {
    const s = await serve();
    try {
      const client = rawClient(s.port, 'GET / HTTP/1.1');
      const sse = await s.stream;
      await new Promise((r) => setImmediate(r));
      sse.sendFrame(SseFrame.of('delta', 'm:1', { n: 1 }));
      expect(s.socket().writableCorked).toBe(0);
      sse.end();
      expect(parse(dechunk((await client.ended).split('\r\n\r\n')[1])).map((m) => m.id)).toEqual(['m:1']);
    } finally {
      await s.close();
    }
  });
});
