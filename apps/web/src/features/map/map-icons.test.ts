import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CATEGORIES, categoryOf, ICONS, toSvg } from '../map-icons/index.ts';
import { BASE_TINT, bodyColor, DEFAULT_BODY, hsbKey, parseHsb, tint } from './colors.ts';
import { iconImageId, parseIconId, PRELOADED } from './icon-images.ts';
import { LruCache } from './lru.ts';
import { DEFAULT_MAP_PREFS, getMapPrefs, MAP_PREF_STORAGE_KEY, parseMapPrefs, resetMapPrefsCache, setMapPref } from './map-prefs.ts';
import { followDevice, getMapFocus, selectDevice, stopFollowing } from './map-api.ts';

describe('LRU image cache (spec §9: 100 entries)', () => {
  it('evicts the least recently used entry past its capacity', () => {
    const evicted: string[] = [];
    const cache = new LruCache<string, number>(3, (key) => evicted.push(key));
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('d', 4);
    expect(evicted).toEqual(['b']);
    expect(cache.has('b')).toBe(false);
    expect(cache.keys()).toEqual(['c', 'a', 'd']);
    cache.set('c', 30); // re-setting refreshes too
    cache.set('e', 5);
    expect(evicted).toEqual(['b', 'a']);
    expect(cache.size).toBe(3);
    expect(cache.get('zzz')).toBeUndefined();
  });

  it('holds 100 entries', () => {
    const cache = new LruCache<number, number>(100);
    for (let i = 0; i < 250; i++) cache.set(i, i);
    expect(cache.size).toBe(100);
    expect(cache.keys()[0]).toBe(150);
    expect(() => new LruCache(0)).toThrow();
  });
});

describe('icons', () => {
  it('has a drawing for each of the 24 categories of the spec, empty → default', () => {
    expect(CATEGORIES).toHaveLength(24);
    for (const c of CATEGORIES) {
      expect(ICONS[c].length).toBeGreaterThan(0);
      expect(ICONS[c].some((s) => s.role === 'body')).toBe(true);
      expect(toSvg(c, '#f00', '#0f0')).toMatch(/^<svg [^>]+viewBox="0 0 48 48">(<path [^>]+\/>)+<\/svg>$/);
    }
    expect(categoryOf('')).toBe('default');
    expect(categoryOf(null)).toBe('default');
    expect(categoryOf('Truck')).toBe('truck');
    expect(categoryOf('rocket')).toBe('default');
    expect(PRELOADED).toEqual(['default', 'car', 'truck', 'motorcycle', 'bus']);
  });

  it('names icon images by category and colours', () => {
    expect(iconImageId('truck', '155|1.5|0.8', '-14|2|0.6')).toBe('icon:truck:155|1.5|0.8:-14|2|0.6');
    expect(iconImageId(undefined)).toBe('icon:default::');
    expect(iconImageId('car', 'garbage')).toBe('icon:car::');
    expect(parseIconId('icon:truck:155|1.5|0.8:')).toEqual({ category: 'truck', color: '155|1.5|0.8', extra: '' });
    expect(parseIconId('label:x')).toBeNull();
  });
});

describe('device colours (tarkan.color h|s|b)', () => {
  it('parses h|s|b and rejects anything else', () => {
    expect(parseHsb('155|1.5|0.8')).toEqual({ h: 155, s: 1.5, b: 0.8 });
    expect(parseHsb('-14|2|0.6')).toEqual({ h: -14, s: 2, b: 0.6 });
    expect(parseHsb('1|2')).toBeNull();
    expect(parseHsb('')).toBeNull();
    expect(parseHsb(12)).toBeNull();
    expect(hsbKey(parseHsb('155.04|1.5|0.80'))).toBe('155|1.5|0.8');
  });

  it('applies hue-rotate, saturate and brightness to the base red like the CSS filter', () => {
    expect(tint({ h: 0, s: 1, b: 1 })).toBe(`#${BASE_TINT.map((v) => v.toString(16).padStart(2, '0')).join('')}`);
    expect(tint({ h: 0, s: 0, b: 1.8 })).toMatch(/^#([0-9a-f]{2})\1\1$/); // the older default: grey-white
    const green = tint({ h: 105, s: 1, b: 1 });
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(green.slice(i, i + 2), 16)) as [number, number, number];
    expect(g).toBeGreaterThan(r);
    expect(g).toBeGreaterThan(b);
    expect(bodyColor(null)).toBe(DEFAULT_BODY);
  });
});

describe('map preferences (localStorage mapPref)', () => {
  const store = new Map<string, string>();
  beforeEach(() => {
    store.clear();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    });
    resetMapPrefsCache();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('defaults to clustered on and everything else off', () => {
    expect(getMapPrefs()).toEqual({ clustered: true, name: false, plate: false, status: false, precision: false });
    expect(parseMapPrefs({ name: 'yes', status: true })).toEqual({ ...DEFAULT_MAP_PREFS, status: true });
  });

  it('persists a toggle as JSON and keeps keys it does not know', () => {
    store.set(MAP_PREF_STORAGE_KEY, JSON.stringify({ groups: true }));
    setMapPref('name', true);
    setMapPref('clustered', false);
    expect(JSON.parse(store.get(MAP_PREF_STORAGE_KEY)!)).toEqual({ groups: true, name: true, clustered: false });
    resetMapPrefsCache();
    expect(getMapPrefs()).toMatchObject({ name: true, clustered: false });
    store.set(MAP_PREF_STORAGE_KEY, '{not json');
    resetMapPrefsCache();
    expect(getMapPrefs()).toEqual(DEFAULT_MAP_PREFS);
  });
});

describe('map api (select / follow)', () => {
  it('selects with a fly request, follows and stops following', () => {
    selectDevice(7);
    const first = getMapFocus();
    expect(first).toMatchObject({ selectedId: 7, follow: true });
    stopFollowing();
    expect(getMapFocus()).toMatchObject({ selectedId: 7, follow: false, flyRequest: first.flyRequest });
    followDevice(7);
    expect(getMapFocus()).toMatchObject({ selectedId: 7, follow: true, flyRequest: first.flyRequest });
    followDevice(null);
    expect(getMapFocus().follow).toBe(false);
    selectDevice(null);
    expect(getMapFocus().selectedId).toBeNull();
  });
});
