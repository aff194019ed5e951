// Cross-site request forgery guard. Browsers say which page a request comes from (Origin, or on
// older paths only Referer); a state-changing request naming another site is refused before it
// runs, whatever it carries - a cookie, or nothing yet: a foreign page posting a login form
// would otherwise log the visitor into an attacker's account (login CSRF), and one posting to
// the recovery endpoints would mail on the visitor's behalf. Requests naming no origin (apps,
// curl, Traccar Manager) are not from a browser page and pass.
//
// Our pages are the host the request came to and the allow-listed public hosts
// (auth/public-hosts.ts). The cookie session's own Origin pinning (Traccar's check, for every
// method) is `sessionOriginAllowed`.
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { ApiError } from '../http/errors.ts';
import { httpUrl, publicHosts } from './public-hosts.ts';

export const CROSS_SITE_TEXT = 'Origin not allowed - the request comes from another site';

const STATE_CHANGING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

type Ctx = { config: Pick<Config, 'publicUrl' | 'publicHosts'> };

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * The origin the browser names: Origin, else the Referer's origin; `'null'` for an opaque origin
 * (sandboxed frames, some redirects) or an unreadable Referer; null when neither header is sent.
 */
export function claimedOrigin(req: FastifyRequest): string | null {
  const origin = single(req.headers.origin)?.trim();
  if (origin) return origin;
  const referer = single(req.headers.referer)?.trim();
  if (referer) return httpUrl(referer)?.origin ?? 'null';
  return null;
}

/** Is `origin` one of our pages: the host the request came to, or an allow-listed public host? */
export async function isOwnOrigin(ctx: Ctx, req: FastifyRequest, origin: string): Promise<boolean> {
  const url = httpUrl(origin);
  if (!url) return false;
  const host = url.host.toLowerCase();
  if (req.host && host === req.host.toLowerCase()) return true;
  return publicHosts(ctx).allows(host);
}

/**
 * Throws 403 when the browser says the request comes from another site: by Origin or Referer,
 * or - when it sends neither, as on a top-level navigation with referrers turned off - by
 * `Sec-Fetch-Site: cross-site`, which pages cannot forge.
 */
export async function assertSameSite(ctx: Ctx, req: FastifyRequest): Promise<void> {
  const origin = claimedOrigin(req);
  const foreign = origin !== null ? !(await isOwnOrigin(ctx, req, origin)) : single(req.headers['sec-fetch-site']) === 'cross-site';
  if (foreign) throw new ApiError(403, CROSS_SITE_TEXT);
}

/** An onRequest hook refusing cross-site POST, PUT, DELETE and PATCH requests. */
export function crossSiteGuard(ctx: Ctx): (req: FastifyRequest) => Promise<void> {
  return async (req) => {
    if (STATE_CHANGING.has(req.method)) await assertSameSite(ctx, req);
  };
}

/**
 * Traccar's check of a cookie session (any method): a request with an Origin must come from the
 * origin the session was opened from, or - when none was saved - from one of our pages.
 */
export async function sessionOriginAllowed(ctx: Ctx, req: FastifyRequest, savedOrigin: string | null): Promise<boolean> {
  const origin = single(req.headers.origin);
  if (!origin) return true;
  if (savedOrigin) return origin === savedOrigin;
  return isOwnOrigin(ctx, req, origin);
}
