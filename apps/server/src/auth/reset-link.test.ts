import { describe, expect, it, vi } from 'vitest';
import { linkBase, localBase, resetLink, warnWithoutPublicUrl, type LinkBaseInput } from './reset-link.ts';
import { PublicHosts } from './public-hosts.ts';

describe('linkBase', () => {
  const hosts = new PublicHosts({ publicUrl: 'https://gps.example.org/app/', publicHosts: ['white.example.com', 'alt.example.com:8443'] });
  const base: LinkBaseInput = {
    requestedFrom: undefined,
    requestHost: '10.0.0.5:8082',
    protocol: 'http',
    publicUrl: 'https://gps.example.org/app/',
    fallback: 'http://localhost:8082',
    allows: (host) => hosts.allows(host),
  };

  it('uses the public URL, path included, unless an allow-listed host is named', async () => {
    expect(await linkBase(base)).toBe('https://gps.example.org/app');
    expect(await linkBase({ ...base, requestedFrom: 'https://gps.example.org/x' })).toBe('https://gps.example.org/app');
    expect(await linkBase({ ...base, requestedFrom: 'https://white.example.com/login?x=1' })).toBe('https://white.example.com');
    expect(await linkBase({ ...base, requestHost: 'WHITE.example.com' })).toBe('https://white.example.com');
    expect(await linkBase({ ...base, requestedFrom: 'https://alt.example.com:8443/' })).toBe('https://alt.example.com:8443');
  });
  it('never uses a host the requester names that is not on the list', async () => {
    expect(await linkBase({ ...base, requestedFrom: 'https://evil.example.net/' })).toBe('https://gps.example.org/app');
    expect(await linkBase({ ...base, requestHost: 'evil.example.net' })).toBe('https://gps.example.org/app');
    expect(await linkBase({ ...base, requestedFrom: 'https://alt.example.com/' })).toBe('https://gps.example.org/app');
    const noPublic = { ...base, publicUrl: null, allows: () => false };
    expect(await linkBase({ ...noPublic, requestHost: 'evil.example.net', requestedFrom: 'http://evil.example.net' })).toBe('http://localhost:8082');
  });
  it('asks sources added to the allow-list later', async () => {
    const list = new PublicHosts({ publicUrl: null, publicHosts: [] });
    list.add(async (host) => host === 'reseller.example.net');
    const input = { ...base, publicUrl: null, allows: (h: string) => list.allows(h) };
    expect(await linkBase({ ...input, requestedFrom: 'http://reseller.example.net/login' })).toBe('http://reseller.example.net');
    expect(await linkBase({ ...input, requestedFrom: 'http://other.example.net/login' })).toBe('http://localhost:8082');
  });
  it('does not downgrade to http when the public URL is https', async () => {
    expect(await linkBase({ ...base, requestedFrom: 'http://white.example.com/' })).toBe('https://white.example.com');
  });
  it('ignores non-http schemes and URLs with credentials', async () => {
    expect(await linkBase({ ...base, requestedFrom: 'javascript:alert(1)//white.example.com' })).toBe('https://gps.example.org/app');
    expect(await linkBase({ ...base, requestedFrom: 'https://a@white.example.com/' })).toBe('https://gps.example.org/app');
    expect(await linkBase({ ...base, requestedFrom: 'not a url' })).toBe('https://gps.example.org/app');
  });
  it('builds the recover path', () => {
    expect(resetLink('https://h', 'abc_-1')).toBe('https://h/login/recover/abc_-1');
  });
});

describe('localBase and the start-up warning', () => {
  it('names the listening address, localhost for any-address binds', () => {
    expect(localBase({ host: '0.0.0.0' }, 8082)).toBe('http://localhost:8082');
    expect(localBase({ host: '::' }, 8082)).toBe('http://localhost:8082');
    expect(localBase({ host: '127.0.0.1' }, 9000)).toBe('http://127.0.0.1:9000');
    expect(localBase({ host: '::1' }, 9000)).toBe('http://[::1]:9000');
  });
  it('warns at start-up only when RASTRO_PUBLIC_URL is missing', () => {
    const log = { warn: vi.fn() };
    warnWithoutPublicUrl({ publicUrl: 'https://gps.example.org', host: '0.0.0.0', port: 8082 }, log);
    expect(log.warn).not.toHaveBeenCalled();
    warnWithoutPublicUrl({ publicUrl: null, host: '0.0.0.0', port: 8082 }, log);
    expect(log.warn).toHaveBeenCalledOnce();
    expect(String(log.warn.mock.calls[0]![0])).toMatch(/set RASTRO_PUBLIC_URL/);
    expect(String(log.warn.mock.calls[0]![0])).toContain('http://localhost:8082');
  });
});
