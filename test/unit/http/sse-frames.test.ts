import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { SseFrame, SseStream } from '../../../src/http/sse';

/** A real HTTP server whose one response is an SseStream handed to the test. */
async function serve(opts: ConstructorParameters<typeof SseStream>[1] = {}) {
  let resolveStream!: (s: SseStream) => void;
  const stream = new Promise<SseStream>((r) => (resolveStream = r));
  const server = http.createServer((_req, res) => {
    const sse = new SseStream(res, { heartbeatMs: 60_000, ...opts });
    sse.open();
    resolveStream(sse);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { server, port, stream, close: () => new Promise<void>((r) => server.close(() => r())) };
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
