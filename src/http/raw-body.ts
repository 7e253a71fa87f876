import type { IncomingMessage } from 'node:http';
import type { ErrorCode } from '../errors/error-codes';

const RAW = new WeakMap<IncomingMessage, Buffer>();
const UNREADABLE = new WeakMap<IncomingMessage, BodyRefusal>();

/**
 * Keeps the exact bytes of a JSON body the server read (the body gate, or the
 * repeat answers' read of a small GraphQL POST), for routes that verify a
 * signature over them (payment webhooks). Held in a weak map, so they go with
 * the request.
 */
export function keepRawBody(req: IncomingMessage, buf: Buffer): void {
  RAW.set(req, buf);
}

/** The raw JSON body of a request as UTF-8 text, when one was parsed. */
export function rawBodyOf(req: IncomingMessage): string | undefined {
  return RAW.get(req)?.toString('utf8');
}

/** Why a request's body is refused: the error code (its status) and the problem, said of `body`. */
export interface BodyRefusal {
  code: Extract<ErrorCode, 'bad_request' | 'unsupported_media_type'>;
  message: string;
}

/**
 * Records that the body cannot be taken (unreadable, nested too deep, of a type
 * or encoding the server does not read), to be answered by whoever handles the
 * request after its own credential check: a caller without credentials gets the
 * 401 whatever it sent.
 */
export function deferBodyError(req: IncomingMessage, message: string, code: BodyRefusal['code'] = 'bad_request'): void {
  UNREADABLE.set(req, { code, message });
}

/** Why the request's body cannot be taken, if it cannot. */
export function bodyErrorOf(req: IncomingMessage): BodyRefusal | undefined {
  return UNREADABLE.get(req);
}
