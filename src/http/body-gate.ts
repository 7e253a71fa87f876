import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { RequestHandler } from 'express';
import { jsonNestingExceeds, nestingProblem } from './json-bounds';
import { bodyErrorOf, deferBodyError, keepRawBody } from './raw-body';
import { sendError } from './send-error';

/**
 * The one reader of request bodies, for every route (the REST surfaces, Apollo
 * at /graphql, graphql-sse at /graphql/stream, the webhooks). Before any byte
 * of a body is read:
 *
 * - a declared `Content-Length` over {@link BodyLimits.limitBytes} is 413
 *   `payload_too_large` at once;
 * - a body that is not UTF-8 JSON (`Content-Type: application/json`, charset
 *   absent or UTF-8; `Content-Encoding` absent, identity, gzip, deflate or br)
 *   is 415 `unsupported_media_type`, deferred like every body error so that a
 *   protected route's credential check answers first; that body is not read
 *   into memory.
 *
 * Then the body is read, counted as it arrives (after decoding, when encoded)
 * and cut at the limit (413); its nesting is checked on the text before it is
 * parsed (400 naming `JSON_MAX_DEPTH`). What the client still sends of a
 * refused body after the answer is dropped, for a bounded time
 * ({@link discardRest}).
 *
 * Written here rather than with `express.json`: on a body over its limit that
 * parser reads the rest of the body before it answers (an endless chunked body
 * holds the request until the request timeout), and it leaves a body of a type
 * it does not parse (`application/json-patch+json`) to whoever reads next,
 * without a bound.
 */

/** The settings (`HTTP_BODY_LIMIT_BYTES`, `JSON_MAX_DEPTH` in config.ts). */
export interface BodyLimits {
  /** Bytes a body may have, after any content decoding. */
  limitBytes: number;
  /** Levels a JSON body, or GraphQL `variables`/`extensions` in a query string, may nest. */
  maxDepth: number;
}

/** The only media type a body is read as (RFC 8259: JSON exchanged between systems is UTF-8). */
export const JSON_MEDIA_TYPE = 'application/json';

const CHARSETS = new Set(['utf-8', 'utf8']);

/** Content codings a body may arrive in, each with its decoder. */
const DECODERS: Record<string, () => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

type WithBody = IncomingMessage & { body?: unknown };

/** Whether the request carries a body: a chunked one, or a declared non-zero length. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) !== 0);
}

/** Why a body of this content type or coding is not read, or undefined when it is. */
function unsupportedBody(req: IncomingMessage): string | undefined {
  const header = req.headers['content-type'];
  const [type = '', ...params] = (header ?? '').split(';');
  const mediaType = type.trim().toLowerCase();
  if (mediaType !== JSON_MEDIA_TYPE) {
    return `Content-Type must be ${JSON_MEDIA_TYPE} (got ${mediaType === '' ? 'none' : mediaType})`;
  }
  const charset = params
    .map((p) => p.trim())
    .find((p) => /^charset\s*=/i.test(p))
    ?.replace(/^charset\s*=\s*/i, '')
    .replace(/^"(.*)"$/, '$1')
    .toLowerCase();
  if (charset !== undefined && !CHARSETS.has(charset)) return `charset ${charset} is not supported: send UTF-8`;
  const coding = contentCoding(req);
  if (coding !== undefined && !(coding in DECODERS)) {
    return `Content-Encoding ${coding} is not supported (gzip, deflate, br or none)`;
  }
  return undefined;
}

/** The body's content coding, or undefined for none (`identity`). */
function contentCoding(req: IncomingMessage): string | undefined {
  const coding = req.headers['content-encoding']?.trim().toLowerCase();
  return coding === undefined || coding === '' || coding === 'identity' ? undefined : coding;
}

/** How long after the answer a refused body is still read and dropped, at most; then the connection is closed. */
const DISCARD_MAX_MS = 5_000;

/**
 * Once the answer to a refused body is sent, reads what the client still
 * sends of it and drops it (nothing is kept), for up to {@link DISCARD_MAX_MS},
 * then closes the connection (a lingering close). Closing at once would reset
 * a connection the client is still writing to, and the reset can discard the
 * answer before the client reads it (RFC 9112 §9.6); a client whose body ends
 * within the bound keeps its connection.
 */
function discardRest(req: IncomingMessage, res: ServerResponse): void {
  res.once('finish', () => {
    if (req.complete || req.destroyed) return;
    const cut = () => {
      done();
      req.socket.destroy();
    };
    const timer = setTimeout(cut, DISCARD_MAX_MS);
    timer.unref();
    const drop = () => undefined;
    const done = () => {
      clearTimeout(timer);
      req.off('data', drop);
      req.off('end', done);
      req.off('close', done);
    };
    req.on('data', drop);
    req.once('end', done);
    req.once('close', done);
    req.resume();
  });
}

/** 413 at once; the rest of the body is dropped, not read into memory. */
function refuseTooLarge(req: IncomingMessage, res: ServerResponse, limitBytes: number): void {
  discardRest(req, res);
  sendError(res, 'payload_too_large', `body: larger than ${limitBytes} bytes (HTTP_BODY_LIMIT_BYTES)`);
}

/**
 * Takes a UTF-8 JSON body that was read whole: keeps its bytes (signed
 * webhooks), then sets `req.body` to the parsed value, strictly an object or
 * an array (an empty body is `{}`), or defers the 400: malformed JSON, or
 * nested deeper than `maxDepth` (checked on the text, before parsing).
 */
export function acceptJsonBody(req: IncomingMessage, raw: Buffer, maxDepth: number): void {
  keepRawBody(req, raw);
  const target = req as WithBody;
  target.body = undefined;
  let text = raw.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a byte-order mark is not part of the JSON
  if (text.length === 0) {
    target.body = {};
    return;
  }
  const first = /^[ \t\n\r]*([^ \t\n\r])/.exec(text)?.[1];
  if (first !== '{' && first !== '[') return deferBodyError(req, 'malformed JSON');
  if (jsonNestingExceeds(text, maxDepth)) return deferBodyError(req, nestingProblem(maxDepth));
  try {
    target.body = JSON.parse(text) as unknown;
  } catch {
    deferBodyError(req, 'malformed JSON');
  }
}

/** The body gate: Express middleware, mounted before every route. */
export function bodyGate(limits: BodyLimits): RequestHandler {
  return (req, res, next) => {
    const target = req as WithBody;
    // Apollo's Express binding requires the property, as body parsers leave it.
    if (!('body' in target)) target.body = undefined;
    // Read already (a small GraphQL POST read by the pre-Express fast path: src/http/fast-path.ts), or none.
    if (req.readableEnded || !hasBody(req)) return next();
    if (Number(req.headers['content-length']) > limits.limitBytes) {
      return refuseTooLarge(req, res, limits.limitBytes);
    }
    const unsupported = unsupportedBody(req);
    if (unsupported !== undefined) {
      deferBodyError(req, unsupported, 'unsupported_media_type');
      discardRest(req, res);
      return next();
    }
    const coding = contentCoding(req);
    const decoder = coding === undefined ? undefined : DECODERS[coding]();
    const source: Readable = decoder ?? req;
    if (decoder) req.pipe(decoder);
    const chunks: Buffer[] = [];
    let received = 0;
    let done = false;
    const stop = () => {
      done = true;
      source.off('data', onData);
      if (decoder) {
        req.unpipe(decoder);
        decoder.destroy();
      }
      req.pause();
    };
    const onData = (chunk: Buffer) => {
      if (done) return;
      received += chunk.length;
      if (received <= limits.limitBytes) {
        chunks.push(chunk);
        return;
      }
      stop();
      refuseTooLarge(req, res, limits.limitBytes);
    };
    source.on('data', onData);
    source.once('end', () => {
      if (done) return;
      done = true;
      acceptJsonBody(req, Buffer.concat(chunks, received), limits.maxDepth);
      next();
    });
    // A decoder's error is a body that is not what its coding says; the request's own is the client gone.
    decoder?.once('error', () => {
      if (done) return;
      stop();
      deferBodyError(req, `not valid ${coding} data`);
      discardRest(req, res);
      next();
    });
    req.once('error', () => {
      if (!done) stop();
    });
  };
}

/** GraphQL request parameters that are JSON text in a query string (GET). */
const QUERY_JSON_PARAMS = ['variables', 'extensions'];

/**
 * The gate of /graphql and /graphql/stream, after {@link bodyGate}: a refused
 * body is answered at once (these routes check credentials per operation), and
 * so is `variables` or `extensions` JSON in the query string that nests deeper
 * than `maxDepth` (400 naming the parameter), before Apollo or graphql-sse
 * parses it.
 */
export function graphqlInputGate(maxDepth: number): RequestHandler {
  return (req, res, next) => {
    const refused = bodyErrorOf(req);
    const query = req.url.indexOf('?');
    let message = refused && `body: ${refused.message}`;
    if (message === undefined && query >= 0) {
      const params = new URLSearchParams(req.url.slice(query + 1));
      const deep = QUERY_JSON_PARAMS.find((name) => params.getAll(name).some((v) => jsonNestingExceeds(v, maxDepth)));
      if (deep !== undefined) message = `${deep}: ${nestingProblem(maxDepth)}`;
    }
    if (message === undefined) return next();
    res.locals.route = req.baseUrl + req.path;
    sendError(res, refused?.code ?? 'bad_request', message);
  };
}
