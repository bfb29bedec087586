import type { FastifyInstance } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The methods the service answers at this URL (a path, with or without query), HEAD and
     * OPTIONS included; empty when no route has the path at all. A not-found handler answers
     * 405 with them in Allow when the list is not empty.
     */
    allowedMethods(url: string): string[];
  }
}

/** How both services' routers match paths (Fastify's routerOptions, and the router below). */
export const ROUTER_OPTIONS = { maxParamLength: 512, ignoreTrailingSlash: true };

/** Methods that alone do not make a path exist: the CORS preflight answers OPTIONS on any /v1 path. */
const CATCH_ALL_METHODS = new Set(['OPTIONS']);

/**
 * Remembers every route's path and methods in a router of its own (the one Fastify uses,
 * find-my-way, with the same options), so that a request Fastify found no route for can be
 * told apart: no such path (404) or not with this method (405 and Allow). Install it before
 * the routes are registered: it learns them from the onRoute hook.
 */
export function trackRouteMethods(app: FastifyInstance): void {
  const router = FindMyWay(ROUTER_OPTIONS);
  const methods = new Set<string>();
  const known = new Set<string>();
  const noop = () => {};
  app.addHook('onRoute', (route) => {
    const routeMethods = Array.isArray(route.method) ? route.method : [route.method];
    // A GET route answers HEAD too (Fastify adds it unless told not to).
    const withHead = routeMethods.includes('GET') ? [...routeMethods, 'HEAD'] : routeMethods;
    for (const method of withHead) {
      const key = `${method} ${route.url}`;
      if (known.has(key)) continue;
      known.add(key);
      methods.add(method);
      router.on(method as HTTPMethod, route.url, noop);
    }
  });
  app.decorate('allowedMethods', (url: string): string[] => {
    const path = url.split('?')[0] ?? '/';
    const allowed = [...methods].filter((method) => router.find(method as HTTPMethod, path) !== null);
    return allowed.some((method) => !CATCH_ALL_METHODS.has(method)) ? allowed.sort() : [];
  });
}
