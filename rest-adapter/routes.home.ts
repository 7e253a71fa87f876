import { HomeDocument } from '../schema/generated/operations';
import { HOME_LIMITS } from '../src/modules/social/home/home.limits';
import { str } from './params';
import { route } from './route.types';
import { z } from 'zod';

/** The home screen (the GraphQL `home` query). */
export const homeRoutes = [
  route({
    id: 'home',
    surface: 'trading',
    method: 'GET',
    path: '/api/home',
    summary:
      `The caller's home screen in one response: the followed traders' newest trades ` +
      `(${HOME_LIMITS.activity}), trending events (${HOME_LIMITS.trending}, 24 h volume order) and the ` +
      `positions summary. \`category\` filters activity and trending events.`,
    auth: 'bearer',
    params: { query: z.object({ category: str(HOME_LIMITS.category.max) }) },
    document: HomeDocument,
    result: 'home',
    errors: [400, 401],
    tags: ['social'],
  }),
];
