import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema } from 'graphql';
import { z } from 'zod';
import {
  CopytradeDocument,
  GetEventDocument,
  SellPositionDocument,
  type CopytradeMutationVariables,
} from '../../../schema/generated/operations';
import { assertRouteValid } from '../../../rest-adapter/route-check';
import { ROUTES } from '../../../rest-adapter/routes';
import { route, type AnyRouteDef } from '../../../rest-adapter/route.types';

// The committed SDL is the schema the routes' documents were generated against.
const schema = buildSchema(readFileSync(path.join(__dirname, '../../../schema/schema.graphql'), 'utf8'));

const base = {
  surface: 'trading',
  method: 'GET',
  summary: 'test route',
  auth: 'none',
  errors: [],
} as const;

/** The event detail route as the table has it: `{slug}` sent as `$ref`. */
const eventDetail = (over: Partial<AnyRouteDef>): AnyRouteDef =>
  route({
    ...base,
    id: 'testEvent',
    path: '/api/test/{slug}',
    params: { path: z.object({ slug: z.string() }) },
    document: GetEventDocument,
    variables: ({ slug }: Record<string, unknown>) => ({ ref: slug as string }),
    result: 'event',
    ...over,
  });

describe('route parameters against the operation variables', () => {
  it.each(ROUTES.map((r) => [r.id, r] as const))('%s sends only declared variables, and every required one', (_id, r) =>
    expect(() => assertRouteValid(schema, r)).not.toThrow(),
  );

  it('accepts a route whose parameters map onto the variables', () => {
    expect(() => assertRouteValid(schema, eventDetail({}))).not.toThrow();
  });

  it('refuses a parameter the operation does not declare, naming it', () => {
    const misnamed = eventDetail({ variables: ({ slug }: Record<string, unknown>) => ({ slug }) });
    expect(() => assertRouteValid(schema, misnamed)).toThrow(
      /route testEvent: parameter "slug" is not a variable of the operation \(its variables: \$ref\)/,
    );
  });

  it('refuses a query parameter passed through unmapped, naming it', () => {
    const extra = eventDetail({
      params: { path: z.object({ slug: z.string() }), query: z.object({ venu: z.string().optional() }) },
      variables: ({ slug, ...rest }: Record<string, unknown>) => ({ ...rest, ref: slug as string }),
    });
    expect(() => assertRouteValid(schema, extra)).toThrow(/parameter "venu" is not a variable/);
  });

  it('refuses a route that never sends a required variable', () => {
    const unsent = eventDetail({ params: undefined, variables: undefined, path: '/api/test' });
    expect(() => assertRouteValid(schema, unsent)).toThrow(/required variable \$ref is not sent/);
  });

  it('refuses a required variable fed by an optional parameter', () => {
    const optional = eventDetail({
      path: '/api/test',
      params: { query: z.object({ slug: z.string().optional() }) },
    });
    expect(() => assertRouteValid(schema, optional)).toThrow(/required variable \$ref is not sent by every request/);
  });

  const copyRoute = (body: z.ZodObject<z.ZodRawShape>) =>
    route({
      ...base,
      id: 'testCopy',
      method: 'POST',
      path: '/api/test/copy',
      params: { body },
      document: CopytradeDocument,
      variables: (input) => ({ input }) as CopytradeMutationVariables,
      result: 'copytrade',
    });

  it('refuses a body field that is not a field of the input object, naming it', () => {
    const copy = copyRoute(
      z.object({ venue: z.string(), traderId: z.string(), tradeId: z.string(), sizeUsd: z.number().optional() }),
    );
    expect(() => assertRouteValid(schema, copy)).toThrow(
      /route testCopy: parameter "input.sizeUsd" is not a field of CopytradeInput/,
    );
  });

  it('refuses an input object that may lack a required field', () => {
    const copy = copyRoute(z.object({ venue: z.string(), traderId: z.string(), trade_id: z.string() }));
    expect(() => assertRouteValid(schema, copy)).toThrow(/parameter "input.trade_id" is not a field/);
    const optional = copyRoute(z.object({ venue: z.string(), traderId: z.string(), tradeId: z.string().optional() }));
    expect(() => assertRouteValid(schema, optional)).toThrow(
      /the required field CopytradeInput.tradeId is not sent by every request/,
    );
  });

  it('refuses a misnamed path parameter of a stream route', () => {
    const sell = route({
      ...base,
      id: 'testSell',
      method: 'POST',
      path: '/api/test/{position}/sell',
      params: { path: z.object({ position: z.string() }) },
      document: SellPositionDocument,
      result: 'sellPosition',
      stream: { event: 'e', idField: 'id' },
    });
    expect(() => assertRouteValid(schema, sell)).toThrow(/route testSell: parameter "position" is not a variable/);
  });
});
