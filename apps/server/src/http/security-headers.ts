// Security headers on every answer of the main server: the API, the web client's files, the SPA
// fallback, errors and 404s. Helmet sets them in an onRequest hook, so they are in place before
// any route, error handler or not-found handler answers. Register this before other hooks.
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/** One year. No includeSubDomains: Rastro often lives on one host of a domain it does not own. */
export const HSTS_VALUE = 'max-age=31536000';

/**
 * The Content-Security-Policy the web client (apps/web) lives within; e2e/tests/csp.spec.ts
 * drives the real client under it and fails on any violation.
 */
export function cspDirectives(frameAncestors: string[]): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    // The built index.html loads only module scripts from /assets (no inline script, no eval).
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    // Mantine writes its theme's CSS variables into <style> elements at run time (the e2e check
    // sees style-src-elem violations without this), and their content follows the theme an
    // administrator picks, so no fixed hash fits; inline style attributes are allowed with them.
    // Styles cannot run script: this keeps scripts strict at the usual, small cost.
    'style-src': ["'self'", "'unsafe-inline'"],
    // MapLibre's worker and our vehicle worker are files under /assets (setWorkerUrl, new
    // Worker(new URL(...))). blob: is how MapLibre starts its worker when that file sits on
    // another origin (a client served from a CDN); a blob worker keeps this page's policy.
    'worker-src': ["'self'", 'blob:'],
    // Map tiles, styles and glyphs come from URLs administrators configure (server and user
    // mapUrl, tarkan.tileUrl; OpenStreetMap by default), so no fixed host list exists: any https
    // host. Plain http: too — tile servers on a LAN or an old install are often http, and the
    // client accepts such a tileUrl; allowing it adds no reach that https: does not already give
    // (a page served over https still refuses mixed content by itself). data: is the SVG icons
    // inside the style sheets (MapLibre's controls); blob: the images MapLibre decodes from
    // fetched bytes.
    'img-src': ["'self'", 'data:', 'blob:', 'https:', 'http:'],
    // Same reason for fetch (MapLibre fetches tiles and styles); ws:/wss: for /api/socket, which
    // older browsers do not count as 'self'.
    'connect-src': ["'self'", 'https:', 'http:', 'ws:', 'wss:'],
    'font-src': ["'self'", 'data:'],
    'object-src': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': frameAncestors,
  };
}

/** X-Frame-Options for browsers without frame-ancestors; it cannot name origins, so lists get none. */
function frameOptions(frameAncestors: string[]): false | { action: 'deny' | 'sameorigin' } {
  if (frameAncestors.length === 1 && frameAncestors[0] === "'none'") return { action: 'deny' };
  if (frameAncestors.length === 1 && frameAncestors[0] === "'self'") return { action: 'sameorigin' };
  return false;
}

/** What a response Fastify writes on its own gets: no sniffing, no framing, the same CSP. */
function earlyHeaders(frameAncestors: string[]): Array<[string, string]> {
  const policy = Object.entries(cspDirectives(frameAncestors)).map(([name, sources]) => [name, ...sources].join(' ')).join(';');
  const headers: Array<[string, string]> = [['X-Content-Type-Options', 'nosniff'], ['Content-Security-Policy', policy]];
  const frame = frameOptions(frameAncestors);
  if (frame) headers.push(['X-Frame-Options', frame.action.toUpperCase()]);
  return headers;
}

export async function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'frameAncestors'>): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      // No upgrade-insecure-requests: on an install served over plain http (a LAN, a test box)
      // it would send every request of the page to https and break it. Over https, HSTS below
      // keeps the browser on https.
      directives: cspDirectives(config.frameAncestors),
    },
    xFrameOptions: frameOptions(config.frameAncestors),
    // Share links and `?token=` logins carry secrets in the URL: other origins (tile servers,
    // links opened from the client) get only our origin, never the path or query. Not
    // no-referrer: tile servers such as OpenStreetMap's ask for a Referer from web pages.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Set per request below: only an https request may get it.
    strictTransportSecurity: false,
    // Off (helmet's default): require-corp would refuse the tile images of other hosts.
    crossOriginEmbedderPolicy: false,
    // The rest is helmet's defaults: nosniff, COOP same-origin, CORP same-origin (relaxed for
    // /api below), Origin-Agent-Cluster, X-DNS-Prefetch-Control off, X-Permitted-Cross-Domain-Policies none.
  });

  // Fastify answers a few requests itself, before any hook (a URL it cannot decode, a
  // parameter over its length limit): the headers that matter for those are set on the raw
  // response first; helmet then sets them again, with the rest, on everything else.
  const early = earlyHeaders(config.frameAncestors);
  app.server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    for (const [name, value] of early) res.setHeader(name, value);
  });

  app.addHook('onRequest', async (req, reply) => {
    // req.protocol honours X-Forwarded-Proto from a trusted proxy only (RASTRO_TRUST_PROXY).
    if (req.protocol === 'https') reply.raw.setHeader('Strict-Transport-Security', HSTS_VALUE);
    // Traccar's own clients call /api from other origins (CORS in app.ts answers them); a
    // same-origin resource policy would let browsers drop those answers in no-cors and
    // cross-origin-isolated contexts. The page and its files keep same-origin.
    if (req.url.startsWith('/api')) reply.raw.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  });
}
