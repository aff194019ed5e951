// Where the links the server mails point: password reset now, invitations and reports later
// (build them with `requestLinkBase` too). A link points only at this server:
//  1. the host the client names (`requested_from`, the page it was on) or, failing that, the host
//     the request came to, but only when that host is on the allow-list (auth/public-hosts.ts) -
//     both are chosen by whoever sends the request, so an unlisted one could send the victim's
//     genuine reset link to an attacker's site;
//  2. otherwise RASTRO_PUBLIC_URL;
//  3. otherwise the server's own address on this machine (http://localhost:<port>), which start-up
//     warns about, since people elsewhere cannot open it.
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { httpUrl, publicHosts, type HostSource } from './public-hosts.ts';

export interface LinkBaseInput {
  /** `requested_from` of the request: the page the client was on. */
  requestedFrom: string | undefined;
  /** The host the request came to (Host, or X-Forwarded-Host from a trusted proxy). */
  requestHost: string | undefined;
  /** `http` or `https`, as the request came. */
  protocol: string;
  publicUrl: string | null;
  /** Used when no public URL is configured: the server's own address. */
  fallback: string;
  /** Is this host one of ours? */
  allows: HostSource;
}

export async function linkBase(input: LinkBaseInput): Promise<string> {
  const publicUrl = httpUrl(input.publicUrl);
  const configured = publicUrl ? `${publicUrl.origin}${publicUrl.pathname.replace(/\/+$/, '')}` : input.fallback;
  const named = [httpUrl(input.requestedFrom), input.requestHost ? httpUrl(`${input.protocol}://${input.requestHost}`) : null];
  for (const url of named) {
    if (!url) continue;
    const host = url.host.toLowerCase();
    // The configured public host keeps its configured path (the app may live under one).
    if (publicUrl && host === publicUrl.host.toLowerCase()) return configured;
    if (await input.allows(host)) {
      // Never downgrade: a server published over https mails https links only.
      const secure = url.protocol === 'https:' || publicUrl?.protocol === 'https:';
      return `${secure ? 'https' : 'http'}://${host}`;
    }
  }
  return configured;
}

/** The server's own address when no public URL is configured: the listening host and port. */
export function localBase(config: Pick<Config, 'host'>, port: number): string {
  const host = config.host === '0.0.0.0' || config.host === '::' || config.host === '' ? 'localhost' : config.host;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

/** The link base for mails sent on behalf of a request, `requested_from` being the client's page. */
export async function requestLinkBase(
  ctx: { config: Pick<Config, 'publicUrl' | 'publicHosts' | 'host' | 'port'> },
  req: FastifyRequest,
  requestedFrom: string | undefined,
): Promise<string> {
  const hosts = publicHosts(ctx);
  return linkBase({
    requestedFrom,
    requestHost: req.host,
    protocol: req.protocol,
    publicUrl: ctx.config.publicUrl,
    fallback: localBase(ctx.config, req.socket.localPort ?? ctx.config.port),
    allows: (host) => hosts.allows(host),
  });
}

/** Says at start-up, when RASTRO_PUBLIC_URL is missing, where mailed links will point instead. */
export function warnWithoutPublicUrl(config: Pick<Config, 'publicUrl' | 'host' | 'port'>, log: Pick<FastifyBaseLogger, 'warn'>): void {
  if (config.publicUrl) return;
  log.warn(
    `RASTRO_PUBLIC_URL is not set: links in e-mails (password reset) point at ${localBase(config, config.port)}, ` +
      'which only works on this machine - set RASTRO_PUBLIC_URL to the address people open Rastro at',
  );
}

export function resetLink(base: string, token: string): string {
  return `${base}/login/recover/${encodeURIComponent(token)}`;
}
