import { bySpecificity } from './express-router';
import type { AnyRouteDef, Surface } from './route.types';

/**
 * Which route of a surface serves a request, by method and path (relative to
 * the surface's mount): its path template, or undefined. Used before routing
 * (the market-data gate counts usage per template), with the router's own
 * precedence: literal segments before parameters.
 */
export function routeTemplateMatcher(routes: readonly AnyRouteDef[], surface: Surface) {
  const table = routes
    .filter((r) => r.surface === surface)
    .sort(bySpecificity)
    .map((r) => ({
      method: r.method,
      template: r.path,
      pattern: new RegExp(`^${r.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[A-Za-z0-9_]+\}/g, '[^/]+')}/?$`),
    }));
  return (method: string, path: string): string | undefined =>
    table.find((r) => r.method === method.toUpperCase() && r.pattern.test(path))?.template;
}
