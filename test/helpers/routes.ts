/**
 * Every route a running Fastify app serves, read from the app itself
 * (`printRoutes`), so that a test covering "every route" follows the routes
 * as they are added instead of a list kept by hand. Hidden routes (the
 * payment page, the demo, the vault's internal call) are included: they are
 * reachable whether the OpenAPI document lists them or not.
 */
import type { FastifyInstance } from 'fastify';

export interface Route {
  method: string;
  /** Fastify's pattern, `:param` style. */
  url: string;
}

/** One line of printRoutes({ commonPrefix: false }): tree glyphs, a path segment, then its methods in parentheses. */
const LINE = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/;

export function routesOf(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  /** The full path of the latest node at each depth: a child's path is its parent's plus its own segment. */
  const pathAtDepth: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const url = (depth > 0 ? pathAtDepth[depth - 1]! : '') + match[2]!;
    pathAtDepth[depth] = url;
    pathAtDepth.length = depth + 1;
    for (const method of match[3]?.split(', ') ?? []) if (method !== 'HEAD') routes.push({ method, url });
  }
  return routes;
}
