// The header's weather: GET /tarkan/weather every 60 s (spec §1). Anything but an answer with
// the weather (204 off, 503 no internet, errors) hides the widget without a word.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation.ts';
import { isWeatherReport, type WeatherReport } from '@rastro/domain/weather';
import { extension } from '../../api/http.ts';
import { weatherLook } from './weather-codes.ts';
import { WeatherGlyph } from './weather-icons.tsx';

export const WEATHER_REFRESH_MS = 60_000;


export async function fetchWeather(): Promise<WeatherReport | null> {
  const { data, status } = await extension.raw<unknown>('/weather', { timeoutMs: 10_000 });
  return status === 200 && isWeatherReport(data) ? data : null;
}

export function useWeather() {
  return useQuery({
    queryKey: ['weather'],
    queryFn: fetchWeather,
    refetchInterval: WEATHER_REFRESH_MS,
    refetchIntervalInBackground: false,
    staleTime: WEATHER_REFRESH_MS - 5_000,
    retry: false,
  });
}

export function Weather({ compact }: { compact: boolean }) {
  const { t, i18n } = useTranslation();
  const { data } = useWeather();
  if (!data) return null;
  const look = weatherLook(data.weatherCode, data.isDay);
  const temperature = `${new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 }).format(data.temperature)} °C`;
  const description = t(`weather.${look.text}`);
  const summary = data.city
    ? t('weather.summaryIn', { temperature, description, city: data.city })
    : t('weather.summary', { temperature, description });
  return (
    <div className="hdr-weather" data-testid="header-weather" title={summary}>
      <WeatherGlyph icon={look.icon} size={compact ? 22 : 26} />
      <span aria-hidden="true" className="hdr-weather-temp">{temperature}</span>
      {!compact && data.city && <span aria-hidden="true" className="hdr-weather-city">{data.city}</span>}
      <span className="hdr-sr-only">{summary}</span>
    </div>
  );
}
