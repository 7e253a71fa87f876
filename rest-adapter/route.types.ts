import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Which surface a route belongs to: trading at the root, market-data under /market-data. */
export type Surface = 'trading' | 'market-data';

/**
 * How a route authenticates, as documented. The resolvers enforce it (the same
 * rule holds for GraphQL callers); the adapter also checks it before reading a
 * request's inputs (route-auth.ts), and it drives OpenAPI security.
 */
export type RouteAuth =
  | 'none'
  | 'optional-bearer'
  | 'bearer'
  | 'bearer+admin'
  | 'admin'
  | 'rewards-admin'
  | 'feed-ingest'
  | 'payment-signature'
  | 'indexer-secret'
  | 'api-key';

type AnyObjectSchema = z.ZodObject<z.ZodRawShape>;

/**
 * One REST route: data, not code. The adapter turns it into an express handler
 * and an OpenAPI operation. Variables come from path, then query, then body.
 */
export interface RouteDef<TData = unknown, TVars = Record<string, unknown>> {
  /** OpenAPI operationId. */
  id: string;
  surface: Surface;
  method: HttpMethod;
  /** OpenAPI-style template relative to the surface's mount: `/api/events/{slug}`. */
  path: string;
  summary: string;
  auth: RouteAuth;
  params?: {
    path?: AnyObjectSchema;
    query?: AnyObjectSchema;
    body?: AnyObjectSchema;
  };
  /** The operation it runs, typed by GraphQL Code Generator. */
  document: TypedDocumentNode<TData, TVars>;
  /**
   * Passes the request's exact JSON body text to the operation as this variable
   * (webhooks whose signature covers the raw bytes); the body is then not parsed
   * against a schema here, the operation checks it after the signature.
   */
  rawBody?: { variable: string; description: string };
  /** Maps the parsed inputs to the operation's variables (default: the inputs as they are). */
  variables?(input: Record<string, unknown>): TVars;
  /** Dot path of the response body inside the operation's data (`events`). */
  result: string;
  /**
   * Serve the result in another format than JSON (for example CSV): `render`
   * turns the selected data into the body, sent with `contentType`. Errors stay
   * JSON. Renderers are format-generic (see representations.ts); what to show
   * is the route's data.
   */
  representation?: Representation;
  /** Success status (default 200). */
  status?: number;
  /** Documented statuses besides the success one. */
  errors: readonly number[];
  /** Answer conditional requests: weak ETag over the body, 304 on If-None-Match. */
  etag?: boolean;
  /**
   * Share the answer per variables through the answer cache of each process (public or API-key
   * queries only: their access is settled before the route runs), dropped when `invalidatedBy` is
   * published and after `READ_CACHE_TTL_MS` at most. A public read is shared without it.
   */
  cache?: { invalidatedBy: string };
  /** Deprecated route: a `Deprecation` header and a `Link` to the successor. */
  deprecated?: { since: Date; successor: string };
  /**
   * A subscription route: the response is an SSE stream of `event` messages, `id:` from `idField`.
   * With `eventField`, each message's `event:` is that field of the item instead (`event` then
   * documents the names).
   */
  stream?: { event: string; idField: string; eventField?: string };
  /**
   * A route the interface documents do not have (an addition of this service): the OpenAPI
   * operation says so with `x-beyond-interface-documents: true`.
   */
  beyondDocuments?: boolean;
  tags?: readonly string[];
}

/** A non-JSON response format of a route. */
export interface Representation {
  /** The media type with its parameters (`text/csv; charset=utf-8; header=present`). */
  contentType: string;
  /** Suggested file name: sent as `Content-Disposition: attachment`. */
  filename?: string;
  render(result: unknown): string;
}

/** A route whose generics are erased, for tables. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRouteDef = RouteDef<any, any>;

/** Identity with inference: lets a table entry check its variables against its document. */
export function route<TData, TVars>(def: RouteDef<TData, TVars>): RouteDef<TData, TVars> {
  return def;
}
