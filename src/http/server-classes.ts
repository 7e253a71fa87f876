import http from 'node:http';

/** The prototypes of one server's requests and responses. */
export interface ServerPrototypes {
  readonly request: object;
  readonly response: object;
}

const prototypesByServer = new WeakMap<http.Server, ServerPrototypes>();

/**
 * An HTTP server whose requests and responses are made from classes of its own (Node's
 * `IncomingMessage` and `ServerResponse` options), so that the app that serves it can make their
 * prototypes its own once ({@link adoptServerPrototypes}) instead of changing each request's.
 *
 * Express 5 gives every request and response its app's prototype as it enters the app
 * (`Object.setPrototypeOf` in `app.handle`). V8 then moves each of them to a hidden class of its
 * own, and what a request allocates afterwards outlives it in the young generation: measured with
 * `--trace-gc-nvp`, a tenth to two fifths of all allocation survived each scavenge and was promoted,
 * in the service and in a one-middleware Express app alike, against none for Node alone; the
 * one-middleware app answered 4.4× fewer requests. A request made with the app's prototype
 * already in place leaves `Object.setPrototypeOf` nothing to do. (expressjs/express#5998 proposes
 * the same for Express itself.)
 */
export function createHttpServer(options: http.ServerOptions, listener?: http.RequestListener): http.Server {
  class AppRequest extends http.IncomingMessage {}
  class AppResponse extends http.ServerResponse {}
  const server = http.createServer(
    { ...options, IncomingMessage: AppRequest, ServerResponse: AppResponse } as http.ServerOptions,
    listener,
  );
  prototypesByServer.set(server, { request: AppRequest.prototype, response: AppResponse.prototype });
  return server;
}

/**
 * Makes `server`'s request and response prototypes the app's: they inherit from `base` (the
 * framework's request and response prototypes) and carry `app`, as the framework's per-app
 * prototypes do, and become the app's `request` and `response`. False, with nothing changed, for a
 * server {@link createHttpServer} did not make (its requests get the app's prototype one by one).
 */
export function adoptServerPrototypes(
  server: http.Server,
  app: { request: object; response: object },
  base: ServerPrototypes,
): boolean {
  const own = prototypesByServer.get(server);
  if (!own) return false;
  Object.setPrototypeOf(own.request, base.request);
  Object.setPrototypeOf(own.response, base.response);
  for (const proto of [own.request, own.response]) {
    Object.defineProperty(proto, 'app', { configurable: true, enumerable: true, writable: true, value: app });
  }
  app.request = own.request;
  app.response = own.response;
  return true;
}
