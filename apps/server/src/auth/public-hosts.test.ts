import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { hostOf, PublicHosts, publicHosts } from './public-hosts.ts';

describe('RASTRO_PUBLIC_HOSTS and RASTRO_TOKEN_MAX_DAYS', () => {
  it('reads host names, ports and URLs, in lower case', () => {
    expect(loadConfig({}).publicHosts).toEqual([]);
    expect(loadConfig({ RASTRO_PUBLIC_HOSTS: ' GPS.Example.com, alt.example.com:8443  https://white.example.net/app ' }).publicHosts).toEqual([
      'gps.example.com', 'alt.example.com:8443', 'white.example.net',
    ]);
  });
  it('refuses anything that is not a host, naming the variable', () => {
    for (const bad of ['gps.example.com/path', 'user@gps.example.com', 'ftp://x/', '*.example.com']) {
      expect(() => loadConfig({ RASTRO_PUBLIC_HOSTS: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ RASTRO_PUBLIC_HOSTS: bad }), bad).toThrow(/RASTRO_PUBLIC_HOSTS/);
    }
  });
  it('bounds the token lifetime, 365 days by default', () => {
    expect(loadConfig({}).tokenMaxDays).toBe(365);
    expect(loadConfig({ RASTRO_TOKEN_MAX_DAYS: '30' }).tokenMaxDays).toBe(30);
    expect(() => loadConfig({ RASTRO_TOKEN_MAX_DAYS: '0' })).toThrow(/RASTRO_TOKEN_MAX_DAYS/);
    expect(() => loadConfig({ RASTRO_TOKEN_MAX_DAYS: 'forever' })).toThrow(/RASTRO_TOKEN_MAX_DAYS/);
  });
});

describe('PublicHosts', () => {
  it('allows the public URL host and the listed hosts, exactly', async () => {
    const hosts = new PublicHosts({ publicUrl: 'https://Track.example.com/app/', publicHosts: ['white.example.net', 'alt.example.com:8443'] });
    for (const host of ['track.example.com', 'TRACK.example.com', 'white.example.net', 'alt.example.com:8443']) expect(await hosts.allows(host), host).toBe(true);
    for (const host of ['alt.example.com', 'track.example.com:444', 'evil.example.com', '', null]) expect(await hosts.allows(host), String(host)).toBe(false);
  });
  it('grows with added sources (reseller domains from the database later)', async () => {
    const hosts = new PublicHosts({ publicUrl: null, publicHosts: [] });
    expect(await hosts.allows('reseller.example.org')).toBe(false);
    hosts.add(async (host) => host === 'reseller.example.org');
    expect(await hosts.allows('Reseller.Example.org')).toBe(true);
  });
  it('keeps one list per server context', () => {
    const ctx = { config: { publicUrl: null, publicHosts: [] } };
    expect(publicHosts(ctx)).toBe(publicHosts(ctx));
    expect(publicHosts(ctx)).not.toBe(publicHosts({ config: ctx.config }));
  });
  it('reads the host of http(s) URLs only, never of URLs with credentials', () => {
    expect(hostOf('https://a.example.com:8443/x')).toBe('a.example.com:8443');
    expect(hostOf('https://a.example.com:443/')).toBe('a.example.com');
    expect(hostOf('https://user:pw@a.example.com/')).toBeNull();
    expect(hostOf('javascript:alert(1)')).toBeNull();
    expect(hostOf(null)).toBeNull();
  });
});
