import type { IncomingMessage } from 'node:http';

const RAW = new WeakMap<IncomingMessage, Buffer>();

/**
 * `express.json({ verify })` hook: keeps the exact bytes of a parsed JSON body,
 * for routes that verify a signature over them (payment webhooks). Held in a
 * weak map, so they go with the request.
 */
export function keepRawBody(req: IncomingMessage, _res: unknown, buf: Buffer): void {
  RAW.set(req, buf);
}

/** The raw JSON body of a request as UTF-8 text, when one was parsed. */
export function rawBodyOf(req: IncomingMessage): string | undefined {
  return RAW.get(req)?.toString('utf8');
}
