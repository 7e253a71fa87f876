import { CachePolicyDocument } from '../schema/generated/operations';
import { route } from './route.types';

/** Admin operations (X-Admin-Token). */
export const adminRoutes = [
  route({
    id: 'cachePolicy',
    surface: 'trading',
    method: 'GET',
    path: '/api/admin/storage/cache-policy',
    summary: 'The cache lifetimes in force: history TTLs, ETag policy, REST response caches, memos, API-key lookups.',
    auth: 'admin',
    document: CachePolicyDocument,
    result: 'cachePolicy',
    errors: [401],
    tags: ['admin'],
  }),
];
