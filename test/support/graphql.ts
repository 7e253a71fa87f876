import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { http, type HeaderMap, type HttpResult } from './http';

/** One entry of a GraphQL response's `errors`, as the server formats it. */
export interface GraphqlError {
  message: string;
  extensions: { code: string } & Record<string, unknown>;
  path?: (string | number)[];
}

/** A GraphQL response body: `data` typed by the operation (a generated `…Query` type), and the errors. */
export interface GraphqlBody<TData = unknown> {
  data?: TData | null;
  errors?: GraphqlError[];
}

/**
 * POSTs one GraphQL operation to `/graphql` of `app`: the query as text, or a
 * generated document (printed; its result type then types `body.data`).
 */
export async function gql<TData = unknown, TVars = Record<string, unknown>>(
  app: { url: string },
  query: string | TypedDocumentNode<TData, TVars>,
  variables?: TVars,
  headers: HeaderMap = {},
): Promise<HttpResult & { body: GraphqlBody<TData> }> {
  const text = typeof query === 'string' ? query : print(query);
  const r = await http(`${app.url}/graphql`, { method: 'POST', headers, json: { query: text, variables } });
  return r as HttpResult & { body: GraphqlBody<TData> };
}
