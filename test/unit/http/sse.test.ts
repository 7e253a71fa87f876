import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { SseStream } from '../../../src/http/sse';

/** A response that records what is written, read back with a spec-conformant SSE parser. */
function recordingResponse() {
  const written: string[] = [];
  const res = Object.assign(new EventEmitter(), {
    writeHead: () => res,
    write: (chunk: string | Buffer) => written.push(String(chunk)) > 0,
    // Writes are recorded as they come; corking (the writer batches a tick's writes) changes nothing here.
    cork: () => undefined,
    uncork: () => undefined,
    end: () => res.emit('close'),
  });
  const messages = (): EventSourceMessage[] => {
    const out: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (m) => out.push(m) });
    parser.feed(written.join(''));
    return out;
  };
  return { res: res as unknown as ServerResponse, written, messages };
}

describe('SseStream', () => {
  it('writes event, id and one-line JSON data', () => {
    const { res, messages } = recordingResponse();
    const sse = new SseStream(res, { heartbeatMs: 60_000 });
    sse.open();
    sse.send('fill', 'o1:3', { text: 'two\nlines' });
    sse.end();
    expect(messages()).toEqual([{ event: 'fill', id: 'o1:3', data: JSON.stringify({ text: 'two\nlines' }) }]);
  });

  it('leaves the id out when there is none to resume from, so the client keeps its Last-Event-ID', () => {
    const { res, written, messages } = recordingResponse();
    const sse = new SseStream(res, { heartbeatMs: 60_000 });
    sse.open();
    sse.send('error', undefined, { error: 'internal' });
    sse.end();
    expect(written.join('')).not.toContain('id:');
    expect(messages()).toEqual([{ event: 'error', id: undefined, data: '{"error":"internal"}' }]);
  });

  it('strips line breaks from ids and writes nothing after the end', () => {
    const { res, messages } = recordingResponse();
    const sse = new SseStream(res, { heartbeatMs: 60_000 });
    sse.open();
    sse.send('item', '7\r\n8', 1);
    sse.end();
    expect(sse.send('item', '9', 2)).toBe(false);
    expect(messages().map((m) => m.id)).toEqual(['78']);
  });
});
