import type { Dispatcher } from 'undici';

/**
 * Whether a call that acts at an upstream (places an order) may have reached it, for the HTTP
 * clients on undici: the live venue clients (`venues/live/http.ts`) and venue_a's execution
 * service. A call that failed before it was written was never sent (it can be failed at once);
 * one that failed after may have been acted on (its outcome is unknown until the upstream is asked).
 */

/**
 * Connection-phase error codes (undici passes the connector's Node error on, or its own
 * `ConnectTimeoutError`): the socket never connected, so no request was written.
 */
export const NEVER_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The `code` of an error (Node's and undici's errors carry one), if any. */
export function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Whether a request that failed without an answer may have reached the upstream. Error codes
 * alone cannot tell: a reset (`ECONNRESET`, undici's `UND_ERR_SOCKET` "other side closed") happens
 * on a connection that failed while connecting as well as on one that took the request, and a
 * timeout (the caller's `AbortSignal`) gives the same `TimeoutError` whether the request was still
 * waiting for a connection or already written. So it is decided by `written` (see
 * {@link noticeWrite}: undici handed the request to a connected socket, which writes it in the same
 * tick): not written, never sent (refused, DNS, connect timeout, aborted while queued); written,
 * maybe sent, unless the code is a connection-phase one ({@link NEVER_SENT_CODES}, which cannot
 * follow a write).
 */
export function maybeSent(err: unknown, written: boolean): boolean {
  if (!written) return false;
  const code = codeOf(err);
  return code === undefined || !NEVER_SENT_CODES.has(code);
}

/**
 * An undici interceptor calling `onWrite` when the request is handed to a connected socket to be
 * written (the handler's `onRequestStart`, once the request was not aborted there). Use it per
 * request: `request(url, { dispatcher: agent.compose(noticeWrite(() => (written = true))) })`.
 * Hand-written: `request()` has no option for "written"; an interceptor (`Dispatcher.compose`)
 * wrapping the handler is where undici shows that moment.
 */
export function noticeWrite(onWrite: () => void): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) =>
    dispatch(opts, {
      onRequestStart(controller, context) {
        handler.onRequestStart?.(controller, context);
        // Aborted while it waited for a socket (a timeout): undici aborts it here, before writing.
        if (!controller.aborted) onWrite();
      },
      onRequestUpgrade: (controller, statusCode, headers, socket) =>
        handler.onRequestUpgrade?.(controller, statusCode, headers, socket),
      onResponseStart: (controller, statusCode, headers, statusMessage) =>
        handler.onResponseStart?.(controller, statusCode, headers, statusMessage),
      onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
      onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
      onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
    });
}
