// The hosts that are ours: the configured public URL's host and RASTRO_PUBLIC_HOSTS
// (white-label domains). Links the server mails may point only at them, and pages served from
// them may call the API with a cookie (auth/origin-check.ts). The list is a set of sources so
// it can grow: reseller domains kept in the database will add a source, not a second list.
//
// Hosts compare as `host[:port]` in lower case, the form `URL.host` gives (default ports
// omitted): `gps.example.com` is not `gps.example.com:8443`.
import type { Config } from '../config.ts';

/** Answers whether a host (lower case `host[:port]`) is one of ours. */
export type HostSource = (host: string) => boolean | Promise<boolean>;

export class PublicHosts {
  private readonly configured: ReadonlySet<string>;
  private readonly sources: HostSource[] = [];

  constructor(config: Pick<Config, 'publicUrl' | 'publicHosts'>) {
    const hosts = new Set(config.publicHosts.map((h) => h.toLowerCase()));
    const publicHost = hostOf(config.publicUrl);
    if (publicHost) hosts.add(publicHost);
    this.configured = hosts;
  }

  /** Adds a source of more hosts (asked after the configured ones). */
  add(source: HostSource): void {
    this.sources.push(source);
  }

  async allows(host: string | null | undefined): Promise<boolean> {
    if (!host) return false;
    const key = host.toLowerCase();
    if (this.configured.has(key)) return true;
    for (const source of this.sources) if (await source(key)) return true;
    return false;
  }
}

/** The `host[:port]` of an http(s) URL without credentials, else null. */
export function hostOf(text: string | null | undefined): string | null {
  const url = httpUrl(text);
  return url ? url.host.toLowerCase() : null;
}

/** Parses an http(s) URL that carries no user name or password; anything else is null. */
export function httpUrl(text: string | null | undefined): URL | null {
  if (!text) return null;
  try {
    const url = new URL(text.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.username || url.password ? null : url;
  } catch {
    return null;
  }
}

// One list per running server (several run in one process in tests and across restarts).
const lists = new WeakMap<object, PublicHosts>();

/** The allow-list of a server context. */
export function publicHosts(ctx: { config: Pick<Config, 'publicUrl' | 'publicHosts'> }): PublicHosts {
  let list = lists.get(ctx);
  if (!list) {
    list = new PublicHosts(ctx.config);
    lists.set(ctx, list);
  }
  return list;
}
