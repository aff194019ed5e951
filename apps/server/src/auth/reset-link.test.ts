import { describe, expect, it } from 'vitest';
import { resetLink, resetLinkBase } from './reset-link.ts';

describe('resetLinkBase', () => {
  const base = { hostHeader: 'track.example.com', protocol: 'https', publicUrl: null };

  it('uses requested_from when its host is the request host', () => {
    expect(resetLinkBase({ ...base, requestedFrom: 'https://track.example.com/login?x=1' })).toBe('https://track.example.com');
  });
  it('uses requested_from when its host is the public URL host', () => {
    expect(
      resetLinkBase({ ...base, hostHeader: '10.0.0.5:8082', publicUrl: 'https://gps.example.org/app/', requestedFrom: 'https://gps.example.org/x' }),
    ).toBe('https://gps.example.org');
  });
  it('never uses a foreign host', () => {
    expect(resetLinkBase({ ...base, requestedFrom: 'https://evil.example.net/' })).toBe('https://track.example.com');
    expect(resetLinkBase({ ...base, publicUrl: 'https://gps.example.org/app/', requestedFrom: 'https://evil.example.net' })).toBe(
      'https://gps.example.org/app',
    );
  });
  it('ignores non-http schemes and URLs with credentials', () => {
    expect(resetLinkBase({ ...base, requestedFrom: 'javascript:alert(1)//track.example.com' })).toBe('https://track.example.com');
    expect(resetLinkBase({ ...base, requestedFrom: 'https://a@track.example.com/' })).toBe('https://track.example.com');
    expect(resetLinkBase({ ...base, requestedFrom: 'not a url' })).toBe('https://track.example.com');
  });
  it('builds the recover path', () => {
    expect(resetLink('https://h', 'abc_-1')).toBe('https://h/login/recover/abc_-1');
  });
});
