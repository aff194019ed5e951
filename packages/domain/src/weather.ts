// GET /tarkan/weather: the header's current weather at the caller's location (spec §1).

export interface WeatherReport {
  /** °C */
  temperature: number;
  /** WMO weather code (0–99). */
  weatherCode: number;
  isDay: boolean;
  city: string | null;
  timezone: string | null;
}

export const isWeatherReport = (v: unknown): v is WeatherReport =>
  !!v && typeof v === 'object' && typeof (v as WeatherReport).temperature === 'number' &&
  typeof (v as WeatherReport).weatherCode === 'number';
