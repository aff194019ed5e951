import { describe, expect, it } from 'vitest';
import { COLOR_PRESETS, DEFAULT_HSB, formatHsb, hsbToHex, normaliseHue, parseHsb } from './device-color.ts';

describe('device colours h|s|b', () => {
  it('parses the stored form and refuses malformed values', () => {
    expect(parseHsb('210|1.00|0.80')).toEqual({ h: 210, s: 1, b: 0.8 });
    expect(parseHsb('-14|2|0.6')).toEqual({ h: -14, s: 2, b: 0.6 });
    for (const bad of [undefined, null, '', '1|2', '1-2-3', 'a|1|1', '1||1', 5]) expect(parseHsb(bad), String(bad)).toBeNull();
  });
  it('formats with a whole hue in 0–359 and two decimals, clamped to the slider ranges', () => {
    expect(formatHsb({ h: 210, s: 1, b: 0.8 })).toBe('210|1.00|0.80');
    expect(formatHsb({ h: -14, s: 1.5, b: 0.6 })).toBe('346|1.50|0.60');
    expect(formatHsb({ h: 360, s: 9, b: -1 })).toBe('0|3.00|0.00');
    expect(normaliseHue(-165)).toBe(195);
  });
  it('round-trips every preset', () => {
    for (const p of COLOR_PRESETS) expect(formatHsb(parseHsb(p)!)).toBe(p);
  });
  it('24 distinct presets ending with three greys', () => {
    expect(COLOR_PRESETS).toHaveLength(24);
    expect(new Set(COLOR_PRESETS).size).toBe(24);
    expect(COLOR_PRESETS.slice(-3)).toEqual(['0|0.00|0.30', '0|0.00|0.60', '0|0.00|1.80']);
  });
  it('tints the base red like the CSS filter', () => {
    expect(hsbToHex({ h: 0, s: 1, b: 1 })).toBe('#d63031');
    // Without saturation every hue gives a grey.
    for (const h of [0, 90, 200]) expect(hsbToHex({ h, s: 0, b: 1 })).toMatch(/^#([0-9a-f]{2})\1\1$/);
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hsbToHex({ h: 120, s: 1, b: 1 }).slice(i, i + 2), 16));
    expect(g).toBeGreaterThan(r!);
    expect(g).toBeGreaterThan(b!);
    expect(hsbToHex({ h: 0, s: 1, b: 0 })).toBe('#000000');
    expect(hsbToHex(DEFAULT_HSB)).toMatch(/^#([0-9a-f]{2})\1\1$/);
  });
});
