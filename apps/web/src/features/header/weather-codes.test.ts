import { describe, expect, it } from 'vitest';
import shellEn from '../../i18n/locales/en/shell.json';
import { KNOWN_WEATHER_CODES, weatherLook } from './weather-codes.ts';

describe('WMO weather codes', () => {
  it.each([
    [0, true, 'clear-day', 'clear'],
    [0, false, 'clear-night', 'clear'],
    [1, true, 'clear-day', 'mainlyClear'],
    [2, true, 'partly-day', 'partlyCloudy'],
    [2, false, 'partly-night', 'partlyCloudy'],
    [3, true, 'overcast', 'overcast'],
    [3, false, 'overcast', 'overcast'],
    [45, true, 'fog', 'fog'],
    [48, false, 'fog', 'fog'],
    [51, true, 'drizzle', 'drizzle'],
    [55, true, 'drizzle', 'drizzle'],
    [56, true, 'freezing', 'freezingDrizzle'],
    [57, true, 'freezing', 'freezingDrizzle'],
    [61, true, 'rain', 'rain'],
    [65, false, 'rain', 'rain'],
    [66, true, 'freezing', 'freezingRain'],
    [67, true, 'freezing', 'freezingRain'],
    [71, true, 'snow', 'snow'],
    [75, true, 'snow', 'snow'],
    [77, true, 'snow', 'snowGrains'],
    [80, true, 'showers-day', 'showers'],
    [82, false, 'showers-night', 'showers'],
    [85, true, 'snow', 'snowShowers'],
    [86, true, 'snow', 'snowShowers'],
    [95, true, 'thunder', 'thunderstorm'],
    [96, true, 'thunder', 'thunderstormHail'],
    [99, false, 'thunder', 'thunderstormHail'],
  ])('code %i (day %s) → %s / %s', (code, isDay, icon, text) => {
    expect(weatherLook(code, isDay)).toEqual({ icon, text });
  });

  it('gives unknown codes a neutral look', () => {
    for (const code of [4, 50, 100, -1, 2.5, Number.NaN]) expect(weatherLook(code, true)).toEqual({ icon: 'unknown', text: 'unknown' });
  });

  it('covers the 28 documented codes, each with a translated text', () => {
    expect(KNOWN_WEATHER_CODES).toHaveLength(28);
    for (const code of KNOWN_WEATHER_CODES) {
      for (const isDay of [true, false]) {
        const { text } = weatherLook(code, isDay);
        expect((shellEn.weather as Record<string, string>)[text], `${code}`).toBeTruthy();
      }
    }
  });
});
