// WMO weather interpretation codes (Open-Meteo's `weather_code`) → an icon and a text key.
// `isDay` picks a sun or a moon for the sky-based icons (clear, mainly clear, partly cloudy,
// showers). Unknown codes get a neutral icon instead of a wrong one.

export type WeatherIcon =
  | 'clear-day'
  | 'clear-night'
  | 'partly-day'
  | 'partly-night'
  | 'overcast'
  | 'fog'
  | 'drizzle'
  | 'rain'
  | 'freezing'
  | 'snow'
  | 'showers-day'
  | 'showers-night'
  | 'thunder'
  | 'unknown';

export type WeatherText =
  | 'clear'
  | 'mainlyClear'
  | 'partlyCloudy'
  | 'overcast'
  | 'fog'
  | 'drizzle'
  | 'freezingDrizzle'
  | 'rain'
  | 'freezingRain'
  | 'snow'
  | 'snowGrains'
  | 'showers'
  | 'snowShowers'
  | 'thunderstorm'
  | 'thunderstormHail'
  | 'unknown';

export interface WeatherLook {
  icon: WeatherIcon;
  /** Key under `weather.` in the locale files. */
  text: WeatherText;
}

type Sky = 'clear' | 'partly' | 'showers';

const TABLE: Record<number, { text: WeatherText; icon: WeatherIcon | Sky }> = {
  0: { text: 'clear', icon: 'clear' },
  1: { text: 'mainlyClear', icon: 'clear' },
  2: { text: 'partlyCloudy', icon: 'partly' },
  3: { text: 'overcast', icon: 'overcast' },
  45: { text: 'fog', icon: 'fog' },
  48: { text: 'fog', icon: 'fog' },
  51: { text: 'drizzle', icon: 'drizzle' },
  53: { text: 'drizzle', icon: 'drizzle' },
  55: { text: 'drizzle', icon: 'drizzle' },
  56: { text: 'freezingDrizzle', icon: 'freezing' },
  57: { text: 'freezingDrizzle', icon: 'freezing' },
  61: { text: 'rain', icon: 'rain' },
  63: { text: 'rain', icon: 'rain' },
  65: { text: 'rain', icon: 'rain' },
  66: { text: 'freezingRain', icon: 'freezing' },
  67: { text: 'freezingRain', icon: 'freezing' },
  71: { text: 'snow', icon: 'snow' },
  73: { text: 'snow', icon: 'snow' },
  75: { text: 'snow', icon: 'snow' },
  77: { text: 'snowGrains', icon: 'snow' },
  80: { text: 'showers', icon: 'showers' },
  81: { text: 'showers', icon: 'showers' },
  82: { text: 'showers', icon: 'showers' },
  85: { text: 'snowShowers', icon: 'snow' },
  86: { text: 'snowShowers', icon: 'snow' },
  95: { text: 'thunderstorm', icon: 'thunder' },
  96: { text: 'thunderstormHail', icon: 'thunder' },
  99: { text: 'thunderstormHail', icon: 'thunder' },
};

export function weatherLook(code: number, isDay: boolean): WeatherLook {
  const entry = Number.isInteger(code) ? TABLE[code] : undefined;
  if (!entry) return { icon: 'unknown', text: 'unknown' };
  const time = isDay ? 'day' : 'night';
  switch (entry.icon) {
    case 'clear':
      return { icon: `clear-${time}`, text: entry.text };
    case 'partly':
      return { icon: `partly-${time}`, text: entry.text };
    case 'showers':
      return { icon: `showers-${time}`, text: entry.text };
    default:
      return { icon: entry.icon, text: entry.text };
  }
}

/** Every code the table knows (for tests and the icon gallery). */
export const KNOWN_WEATHER_CODES = Object.keys(TABLE).map(Number);
