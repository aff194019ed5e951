import { describe, expect, it } from 'vitest';
import { agentSummary, parseUserAgent } from './user-agent.ts';

const summary = (ua: string | null) => agentSummary(parseUserAgent(ua));

describe('user agent', () => {
  it('names the common browsers, their major version, the system and the phone', () => {
    expect(summary('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.91 Safari/537.36'))
      .toBe('Chrome 124 · Windows 10');
    expect(summary('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.67'))
      .toBe('Edge 124 · Windows 10');
    expect(summary('Mozilla/5.0 (Windows NT 6.1; rv:115.0) Gecko/20100101 Firefox/115.0')).toBe('Firefox 115 · Windows 7');
    expect(summary('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15'))
      .toBe('Safari 17 · macOS 10.15.7');
    expect(summary('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'))
      .toBe('Safari 17 · iOS 17.4 · iPhone');
    expect(summary('Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1'))
      .toBe('Chrome 124 · iPadOS 16.6 · iPad');
    expect(summary('Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP1A.240405.002) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36'))
      .toBe('Chrome 124 · Android 14 · Pixel 8');
    expect(summary('Mozilla/5.0 (Linux; Android 13; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36'))
      .toBe('Samsung Internet 24 · Android 13 · SM-S918B');
    expect(summary('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/109.0.0.0'))
      .toBe('Opera 109 · Linux');
    expect(summary('Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'))
      .toBe('Chrome 124 · ChromeOS');
    expect(summary('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.6478.126 Safari/537.36'))
      .toBe('Chrome Headless 126 · Linux');
  });

  it('leaves out a model the agent hides (Chrome reduced "K", WebView "wv")', () => {
    expect(summary('Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'))
      .toBe('Chrome 124 · Android 10');
    expect(parseUserAgent('Mozilla/5.0 (Linux; Android 12; wv) AppleWebKit/537.36 Version/4.0 Chrome/120.0 Mobile Safari/537.36').device).toBeNull();
  });

  it('reads API clients, and gives nothing for an empty or unknown agent', () => {
    expect(summary('curl/8.5.0')).toBe('curl 8');
    expect(summary('okhttp/4.12.0')).toBe('okhttp 4');
    expect(summary('Dart/3.3 (dart:io)')).toBe('Dart 3');
    expect(summary('')).toBe('');
    expect(summary(null)).toBe('');
    expect(summary('SomethingElse')).toBe('');
  });
});
