// Every route the server registers, read from Fastify itself: the radix tree `printRoutes()`
// draws (each node's label is its part of the path, so a path is its ancestors' labels joined),
// each result checked back with `hasRoute`. Fastify adds a HEAD twin to every GET
// (exposeHeadRoutes); those are covered by the GET's rows and left out here.
import type { FastifyInstance, HTTPMethods } from 'fastify';

export interface RegisteredRoute {
  method: string;
  path: string;
}

const LINE = /^((?:[│ ] {3})*)(?:[├└]── )(.*?)(?: \(([A-Z, ]+)\))?$/u;

export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const text = app.printRoutes({ commonPrefix: true });
  const stack: string[] = [];
  const found = new Map<string, Set<string>>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`route tree line not understood: ${JSON.stringify(line)}`);
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    const methods = match[3];
    if (!methods) continue;
    const path = stack.join('');
    const set = found.get(path) ?? new Set<string>();
    for (const m of methods.split(',')) set.add(m.trim());
    found.set(path, set);
  }
  const routes: RegisteredRoute[] = [];
  for (const [path, methods] of found) {
    for (const method of methods) {
      if (!app.hasRoute({ method: method as HTTPMethods, url: path })) {
        throw new Error(`route tree read wrongly: Fastify has no ${method} ${path}`);
      }
      if (method === 'HEAD' && methods.has('GET')) continue;
      routes.push({ method, path });
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/** Does `concrete` (a path a row requests) reach the handler registered as `template`? */
export function reachesRoute(app: FastifyInstance, method: string, template: string, concrete: string): boolean {
  const m = method as HTTPMethods;
  const registered = app.findRoute({ method: m, url: template });
  const reached = app.findRoute({ method: m, url: concrete.split('?')[0]! });
  return registered !== null && reached !== null && registered.handler === reached.handler;
}
