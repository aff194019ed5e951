import { describe, expect, it } from 'vitest';
import { ipKey } from './ip-order.ts';

describe('IP order', () => {
  it('sorts IPv4 numerically, not as text', () => {
    const ips = ['10.0.0.10', '10.0.0.9', '9.255.255.255', '192.168.1.2', '10.0.0.100'];
    expect([...ips].sort((a, b) => (ipKey(a)! < ipKey(b)! ? -1 : 1))).toEqual(['9.255.255.255', '10.0.0.9', '10.0.0.10', '10.0.0.100', '192.168.1.2']);
  });

  it('puts IPv4 with its IPv4-mapped IPv6 form and expands IPv6 shorthand', () => {
    expect(ipKey('192.0.2.1')).toBe(ipKey('::ffff:192.0.2.1'));
    expect(ipKey('::ffff:c000:201')).toBe(ipKey('192.0.2.1'));
    expect(ipKey('::1')).toBe('00000000000000000000000000000001');
    expect(ipKey('2001:db8::1')).toBe('20010db8000000000000000000000001');
    expect(ipKey('fe80::1%eth0')).toBe('fe800000000000000000000000000001');
    expect(ipKey('2001:DB8:0:0:0:0:0:2')).toBe('20010db8000000000000000000000002');
    expect(ipKey('::1')! < ipKey('1.2.3.4')!).toBe(true);
  });

  it('has no key for what is not an address', () => {
    for (const bad of ['', null, undefined, '!Sistema!', '256.1.1.1', '1.2.3', '1:2:3', '1::2::3', '12345::1', 'gggg::1']) expect(ipKey(bad)).toBeNull();
  });
});
