import type { DocumentNode, GraphQLSchema } from 'graphql';
import { z } from 'zod';
import { ERROR_CODES, ERROR_STATUS } from '../src/errors/error-codes';
import { responseSchema, type JsonSchema } from './response-schema';
import type { AnyRouteDef, RouteAuth } from './route.types';

const MOUNT = { trading: '', 'market-data': '/market-data' } as const;

const SECURITY: Record<RouteAuth, Record<string, string[]>[]> = {
  none: [],
  'optional-bearer': [{}, { bearerAuth: [] }],
  bearer: [{ bearerAuth: [] }],
  'bearer+admin': [{ bearerAuth: [], adminToken: [] }],
  admin: [{ adminToken: [] }],
  'rewards-admin': [{ rewardsAdminToken: [] }],
  'feed-ingest': [{ feedIngestToken: [] }],
  'payment-signature': [{ paymentSignature: [] }],
  'indexer-secret': [{ indexerSecret: [] }],
  'api-key': [{ apiKeyBearer: [] }, { apiKeyHeader: [] }],
};

const REASON: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  304: 'Not modified (the ETag matched)',
  400: 'Malformed or invalid request',
  401: 'Missing or invalid credential',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  429: 'Rate limited',
  500: 'Server misconfigured or failed',
  502: 'Upstream failure',
  503: 'Dependency unavailable or not configured',
};

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete js.$schema;
  return js;
}

function parametersOf(route: AnyRouteDef): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const where of ['path', 'query'] as const) {
    const obj = route.params?.[where];
    if (!obj) continue;
    const js = jsonSchemaOf(obj);
    const props = (js.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((js.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries(props)) {
      out.push({ name, in: where, required: where === 'path' || required.has(name), schema });
    }
  }
  return out;
}

/** The OpenAPI 3.1 document of both surfaces, generated from the route table; `version` is the interface's. */
export function buildOpenApi(routes: readonly AnyRouteDef[], schema: GraphQLSchema, version: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const p = `${MOUNT[route.surface]}${route.path}`;
    const success = route.status ?? 200;
    const responses: Record<string, JsonSchema> = {
      [success]: route.stream
        ? {
            description: `Server-sent events: \`event: ${route.stream.event}\` with \`id:\` and JSON \`data:\``,
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          }
        : route.representation
          ? {
              description: REASON[success] ?? 'OK',
              content: { [route.representation.contentType.split(';')[0].trim()]: { schema: { type: 'string' } } },
            }
          : {
              description: REASON[success] ?? 'OK',
              content: {
                'application/json': { schema: responseSchema(schema, route.document as DocumentNode, route.result) },
              },
            },
    };
    for (const status of route.errors) {
      responses[status] =
        status === 304
          ? { description: REASON[304] }
          : {
              description: REASON[status] ?? 'Error',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
            };
    }
    paths[p] ??= {};
    paths[p][route.method.toLowerCase()] = {
      operationId: route.id,
      summary: route.summary,
      tags: route.tags ?? [route.surface],
      ...(route.deprecated && { deprecated: true }),
      ...(route.beyondDocuments && { 'x-beyond-interface-documents': true }),
      parameters: parametersOf(route),
      ...(route.params?.body && {
        requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(route.params.body) } } },
      }),
      ...(route.rawBody && {
        requestBody: {
          required: true,
          description: route.rawBody.description,
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      }),
      security: SECURITY[route.auth],
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Prediction-market aggregator',
      version,
      description:
        'Trading surface at the root; market-data surface under /market-data. Generated from the REST route table.',
    },
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['error', 'message'],
          properties: {
            error: { type: 'string', enum: ERROR_CODES },
            message: { type: 'string' },
          },
          'x-status-by-code': ERROR_STATUS,
        },
      },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        adminToken: { type: 'apiKey', in: 'header', name: 'X-Admin-Token' },
        rewardsAdminToken: { type: 'apiKey', in: 'header', name: 'X-Rewards-Admin-Token' },
        feedIngestToken: { type: 'apiKey', in: 'header', name: 'X-Feed-Ingest-Token' },
        paymentSignature: { type: 'apiKey', in: 'header', name: 'Payment-Signature' },
        indexerSecret: { type: 'apiKey', in: 'header', name: 'X-Indexer-Secret' },
        apiKeyBearer: { type: 'http', scheme: 'bearer' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
    },
  };
}
