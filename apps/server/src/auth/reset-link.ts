// Where the password-recovery link points. The client names its own address in
// `requested_from`; it is used only when its host is this server's (the request's Host header)
// or the configured public URL's host, so a forged request can never make us mail a link to a
// foreign site. Otherwise RASTRO_PUBLIC_URL, otherwise the address the request came to.
export interface LinkBaseInput {
  requestedFrom: string | undefined;
  hostHeader: string | undefined;
  protocol: string;
  publicUrl: string | null;
}

function httpUrl(text: string | undefined | null): URL | null {
  if (!text) return null;
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

export function resetLinkBase(input: LinkBaseInput): string {
  const host = input.hostHeader?.trim().toLowerCase() || null;
  const publicUrl = httpUrl(input.publicUrl);
  const requested = httpUrl(input.requestedFrom);
  if (requested && !requested.username && !requested.password) {
    const h = requested.host.toLowerCase();
    // The client's page may live at a path (e.g. /login); the app's root is its origin.
    if ((host && h === host) || (publicUrl && h === publicUrl.host.toLowerCase())) return requested.origin;
  }
  if (publicUrl) return `${publicUrl.origin}${publicUrl.pathname.replace(/\/+$/, '')}`;
  return `${input.protocol}://${host ?? 'localhost'}`;
}

export function resetLink(base: string, token: string): string {
  return `${base}/login/recover/${encodeURIComponent(token)}`;
}
