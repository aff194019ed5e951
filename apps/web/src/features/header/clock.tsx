// Local time in the header, hours and minutes in the interface language (12- or 24-hour as the
// user prefers), refreshed every 60 s on the minute.
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';

export const CLOCK_REFRESH_MS = 60_000;

export function formatClock(date: Date, language: string, twelveHour: boolean): string {
  return new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', hour12: twelveHour }).format(date);
}

/** The current time, re-read at the start of each minute and then every 60 s. */
export function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    let interval: ReturnType<typeof setInterval> | undefined;
    const tick = () => setNow(new Date());
    const first = setTimeout(() => {
      tick();
      interval = setInterval(tick, CLOCK_REFRESH_MS);
    }, CLOCK_REFRESH_MS - (Date.now() % CLOCK_REFRESH_MS) + 50);
    return () => {
      clearTimeout(first);
      if (interval) clearInterval(interval);
    };
  }, []);
  return now;
}

export function Clock({ twelveHour }: { twelveHour: boolean }) {
  const { t, i18n } = useTranslation();
  const now = useMinuteClock();
  const text = formatClock(now, i18n.language, twelveHour);
  return (
    <time className="hdr-clock" data-testid="header-clock" dateTime={now.toISOString()} title={t('header.localTime')}>
      <span className="hdr-sr-only">{t('header.localTime')} </span>
      {text}
    </time>
  );
}
