import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ExecutionEventFieldsFragment } from '../../schema/generated/operations';

/** An execution stream's message, its JSON data parsed (the `execute` and `sellPosition` subscriptions' event). */
export interface StreamEvent {
  event: string;
  id: string;
  data: ExecutionEventFieldsFragment;
}

/** An execution request's whole answer. */
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

/** The event names of a stream, in order. */
export const names = (r: StreamResult) => r.events.map((e) => e.event);

/** The data of a stream's last message (its outcome: `completed`, `failed` or `outcome_unknown`). */
export const lastData = (r: StreamResult) => r.events[r.events.length - 1].data;
