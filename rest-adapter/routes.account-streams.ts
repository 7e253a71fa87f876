import { z } from 'zod';
import { AccountUpdatesDocument } from '../schema/generated/operations';
import { EXECUTION_MODES } from '../src/modules/execution/execution.limits';
import { oneOf } from './params';
import { route } from './route.types';

/**
 * The caller's own account changes as server-sent events (the GraphQL `accountUpdates`
 * subscription). Beyond the interface documents, which list no account stream.
 */
export const accountStreamRoutes = [
  route({
    id: 'streamAccount',
    surface: 'trading',
    method: 'GET',
    path: '/stream/account',
    summary:
      "Server-sent events: the caller's own order, fill, position and balance changes, live and paper, each " +
      'once its transaction committed, in commit order (`event:` order, fill, position or balance; `id:` unique ' +
      'per change; `mode` live or simulation; `?mode=` keeps one account). Live only: nothing is replayed. ' +
      'User bearer token.',
    auth: 'bearer',
    params: { query: z.object({ mode: oneOf(EXECUTION_MODES) }) },
    document: AccountUpdatesDocument,
    result: 'accountUpdates',
    errors: [400, 401, 429, 503],
    stream: { event: 'order, fill, position, balance', eventField: 'kind', idField: 'id' },
    beyondDocuments: true,
    tags: ['stream'],
  }),
];
