/**
 * HTTP for tests, without the server harness (the benchmark imports it too): a
 * JSON-aware fetch, bearer headers and per-user clients.
 */

/** GET/POST helper returning status, headers and parsed JSON. */
export async function http(url: string, init: RequestInit & { json?: unknown } = {}): Promise<HttpResult> {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  const res = await fetch(url, { ...init, headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/**
 * An `Authorization` header object; spread it into other headers to add some. (A type
 * alias, not an interface, so that it passes where a `Record<string, string>` is taken.)
 */
export type BearerHeader = { authorization: string };

/** `token` (a JWT or an API key) as a bearer credential. */
export function bearer(token: string): BearerHeader {
  return { authorization: `Bearer ${token}` };
}

/** What {@link http} answers: status, headers, the JSON body parsed (undefined when not JSON) and the raw text. */
export interface HttpResult {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** Request headers by name. */
export type HeaderMap = Record<string, string>;

/**
 * Requests to one app as one user: paths are relative to the app's URL, a JSON
 * body is sent as `application/json`, `headers` are added to the bearer.
 */
export interface UserClient {
  get(path: string, headers?: HeaderMap): Promise<HttpResult>;
  post(path: string, json?: unknown, headers?: HeaderMap): Promise<HttpResult>;
  put(path: string, json?: unknown, headers?: HeaderMap): Promise<HttpResult>;
  delete(path: string, json?: unknown, headers?: HeaderMap): Promise<HttpResult>;
  request(method: string, path: string, json?: unknown, headers?: HeaderMap): Promise<HttpResult>;
}

/** A {@link UserClient} of the app at `url` whose requests carry the header `auth` gives. */
export function userClient(url: string, auth: () => Promise<BearerHeader>): UserClient {
  const request = async (method: string, path: string, json?: unknown, headers: HeaderMap = {}) =>
    http(`${url}${path}`, { method, headers: { ...(await auth()), ...headers }, json });
  return {
    get: (path, headers) => request('GET', path, undefined, headers),
    post: (path, json, headers) => request('POST', path, json, headers),
    put: (path, json, headers) => request('PUT', path, json, headers),
    delete: (path, json, headers) => request('DELETE', path, json, headers),
    request,
  };
}
