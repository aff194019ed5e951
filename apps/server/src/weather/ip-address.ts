// Which caller addresses the IP geolocation cannot place: loopback, private, link-local,
// carrier-grade NAT and unique-local ranges (browser and server on one network). For those the
// weather feature asks the public IP lookup for the network's public address instead.
import net from 'node:net';

const PRIVATE_V4: Array<[string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
];

const v4ToInt = (ip: string) => ip.split('.').reduce((n, part) => (n << 8) + Number(part), 0) >>> 0;

function inV4Range(ip: string, [base, bits]: [string, number]): boolean {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (v4ToInt(ip) & mask) === (v4ToInt(base) & mask);
}

/** An IPv4-mapped IPv6 address (::ffff:10.0.0.1) as its IPv4 form; anything else unchanged. */
export function normalizeAddress(ip: string): string {
  const trimmed = ip.trim().replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? mapped[1]! : trimmed;
}

/** True when the address is not a public one (or not an address at all). */
export function isPrivateAddress(ip: string): boolean {
  const address = normalizeAddress(ip);
  const family = net.isIP(address);
  if (family === 4) return PRIVATE_V4.some((range) => inV4Range(address, range));
  if (family === 6) {
    const lower = address.toLowerCase();
    if (lower === '::' || lower === '::1') return true;
    const first = parseInt(lower.split(':')[0] || '0', 16);
    // fc00::/7 unique local, fe80::/10 link local.
    return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
  }
  return true;
}
