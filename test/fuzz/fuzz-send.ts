import { request as httpRequest, Agent } from 'node:http';
import type { FuzzCase } from './route-fuzz';

/**
 * Sending a fuzz case as one raw HTTP request (node:http: malformed escapes and
 * bodies that are not UTF-8 reach the server as they are), and the property
 * every answer must hold.
 */

/** What one request answered. */
export interface FuzzOutcome {
  status: number;
  contentType: string;
  body: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/** Closes the kept-alive connections (at the end of a run). */
export function closeFuzzConnections(): void {
  agent.destroy();
}

/** Pieces a chunked body is written in. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Sends one case; a stream's answer (an open SSE response) is read only to its
 * status. A refused body's connection is closed by the server once it has
 * answered: a write failing after the answer is expected.
 */
export function send(base: string, c: FuzzCase): Promise<FuzzOutcome> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: c.method,
        path: c.path,
        headers: {
          ...c.headers,
          ...(c.body && (c.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(c.body.length) })),
        },
        agent,
      },
      (res) => {
        answered = true;
        const contentType = String(res.headers['content-type'] ?? '');
        if (contentType.startsWith('text/event-stream')) {
          res.destroy();
          req.destroy();
          resolve({ status: res.statusCode ?? 0, contentType, body: '' });
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, contentType, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    if (c.body && c.chunked) {
      for (let at = 0; at < c.body.length; at += CHUNK_BYTES) req.write(c.body.subarray(at, at + CHUNK_BYTES));
      req.end();
    } else {
      req.end(c.body);
    }
  });
}

/**
 * A GraphQL endpoint's 4xx: graphql-sse answers some with no body or text
 * ("Stream not found", its own 405/406/415 of its protocol), and a JSON one
 * is GraphQL's `{ errors }` or the error body (the body gate's 413, 415, 400).
 */
function graphqlBodyProblem(o: FuzzOutcome): string | undefined {
  if (!o.contentType.includes('json')) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(o.body);
  } catch {
    return `a ${o.status} that is not the JSON it says: ${o.body.slice(0, 300)}`;
  }
  const b = body as { errors?: unknown; error?: unknown; message?: unknown };
  if (Array.isArray(b.errors) || (typeof b.error === 'string' && typeof b.message === 'string')) return undefined;
  return `a ${o.status} with neither GraphQL errors nor the error body: ${o.body.slice(0, 300)}`;
}

/**
 * Why an answer breaks the property, or undefined when it holds. A GraphQL
 * endpoint's 4xx bodies are checked by {@link graphqlBodyProblem}.
 */
export function problemOf(o: FuzzOutcome, kind: FuzzCase['kind'] = 'rest'): string | undefined {
  if (o.status >= 500) return `answered ${o.status}: ${o.body.slice(0, 300)}`;
  // Node's own HTTP parser refuses oversized headers (431) before the app sees the request: no body to shape.
  if (o.status === 431 && o.body === '') return undefined;
  if (kind === 'graphql' && o.status >= 400) return graphqlBodyProblem(o);
  if (o.status >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(o.body);
    } catch {
      return `a ${o.status} without a JSON error body: ${o.body.slice(0, 300)}`;
    }
    const b = body as { error?: unknown; message?: unknown };
    if (typeof b.error !== 'string' || typeof b.message !== 'string') {
      return `a ${o.status} without the error body shape: ${o.body.slice(0, 300)}`;
    }
  }
  return undefined;
}
