import { z } from 'zod';
import { HealthDocument, PipelineDocument, TradesDocument } from '../schema/generated/operations';
import { VENUES } from '../src/venues/venue.models';
import { oneOf, str } from './params';
import { route } from './route.types';

/** Health, pipeline freshness and the live trades stream. */
export const opsRoutes = [
  route({
    id: 'health',
    surface: 'trading',
    method: 'GET',
    path: '/health',
    summary: 'In-process health snapshot (no database).',
    auth: 'none',
    document: HealthDocument,
    result: 'health',
    errors: [],
    tags: ['ops'],
  }),
  route({
    id: 'pipelineHealth',
    surface: 'trading',
    method: 'GET',
    path: '/health/pipeline',
    summary: 'Ingestion freshness per venue: last trade seen, lag.',
    auth: 'none',
    document: PipelineDocument,
    result: 'pipeline',
    errors: [],
    tags: ['ops'],
  }),
  route({
    id: 'streamTrades',
    surface: 'trading',
    method: 'GET',
    path: '/stream/trades',
    summary: 'Server-sent events: every live trade on both venues (`event: trade`).',
    auth: 'none',
    params: { query: z.object({ venue: oneOf(VENUES), marketId: str(200) }) },
    document: TradesDocument,
    result: 'trades',
    errors: [400, 429],
    stream: { event: 'trade', idField: 'id' },
    tags: ['stream'],
  }),
];
