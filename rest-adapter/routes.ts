import type { AnyRouteDef } from './route.types';
import { commentRoutes } from './routes.comments';
import { eventRoutes } from './routes.events';
import { feedRoutes } from './routes.feed';
import { opsRoutes } from './routes.ops';
import { discoveryRoutes, socialRoutes, traderRoutes } from './routes.social';

/** The one route table: every REST path the service serves. */
export const ROUTES: readonly AnyRouteDef[] = [
  ...eventRoutes,
  ...opsRoutes,
  ...feedRoutes,
  ...commentRoutes,
  ...socialRoutes,
  ...traderRoutes,
  ...discoveryRoutes,
];
