import type { IncomingMessage } from 'node:http';

const RAW = new WeakMap<IncomingMessage, Buffer>();
const UNREADABLE = new WeakMap<IncomingMessage, string>();

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

/**
 * The body parser's complaint about a body it could not read (malformed JSON,
 * too large), as a 400 message; undefined for any other error.
 */
export function unreadableBodyMessage(err: unknown): string | undefined {
  const type = (err as { type?: unknown } | null)?.type;
  if (type === 'entity.parse.failed') return 'malformed JSON';
  if (type === 'entity.too.large') return 'too large';
  return undefined;
}

/**
 * Records that the body could not be read, to be answered (400) by whoever
 * handles the request after its own credential check: a caller without
 * credentials gets the 401 whatever it sent.
 */
export function deferBodyError(req: IncomingMessage, message: string): void {
  UNREADABLE.set(req, message);
}

/** Why the request's body could not be read, if it could not. */
export function bodyErrorOf(req: IncomingMessage): string | undefined {
  return UNREADABLE.get(req);
}
