// IP addresses sorted numerically (tarkan-reference §3.13.20), IPv4 and IPv6 alike: each maps
// to 32 hex digits (IPv4 as its IPv4-mapped IPv6 address, ::ffff:a.b.c.d), so plain text
// comparison is numeric order. Anything that is not an address has no key (sorted last).

function ipv4Hex(text: string): string | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let hex = '';
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    hex += Number(part).toString(16).padStart(2, '0');
  }
  return hex;
}

function ipv6Hex(text: string): string | null {
  let address = text.toLowerCase().replace(/%.*$/, ''); // zone index (fe80::1%eth0)
  // An embedded IPv4 tail (::ffff:192.0.2.1) becomes two groups.
  const tail = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (tail) {
    const v4 = ipv4Hex(tail[1]!);
    if (!v4) return null;
    address = `${address.slice(0, -tail[1]!.length)}${v4.slice(0, 4)}:${v4.slice(4)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return all.map((g) => g.padStart(4, '0')).join('');
}

/** The sort key of an address (32 hex digits), or null. */
export function ipKey(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const text = ip.trim();
  const v4 = ipv4Hex(text);
  if (v4) return `00000000000000000000ffff${v4}`;
  return text.includes(':') ? ipv6Hex(text) : null;
}
