// Units and times as the signed-in user sees them: speed and distance units from the user's
// attributes, else the server's, else the language (packages/domain/src/units.ts), and dates
// in the user's time zone.
import { useMemo } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import {
  distanceFromMetres, DISTANCE_LABEL, formatDistance, formatSpeed, resolveDistanceUnit, resolveSpeedUnit, speedFromKnots, SPEED_LABEL,
  type DistanceUnit, type SpeedUnit,
} from '@rastro/domain/units';
import { useSession } from '../../app/session-store.ts';
import { dateTimeFormat, formatDuration, formatTime, zoneOf } from '../history/index.ts';

export interface Formats {
  language: string;
  tz: string | undefined;
  speedUnit: SpeedUnit;
  distanceUnit: DistanceUnit;
  speedLabel: string;
  distanceLabel: string;
  speed(knots: number | null | undefined): string;
  speedValue(knots: number): number;
  distance(metres: number | null | undefined): string;
  distanceValue(metres: number): number;
  time(iso: string | null | undefined): string;
  timeSeconds(iso: string | null | undefined): string;
  duration(ms: number | null | undefined): string;
}

export function useFormats(): Formats {
  const { i18n } = useTranslation();
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.serverInfo?.server);
  const language = i18n.language;
  return useMemo(() => {
    const speedUnit = resolveSpeedUnit(user?.attributes, server?.attributes, language);
    const distanceUnit = resolveDistanceUnit(user?.attributes, server?.attributes, language);
    const tz = zoneOf(user?.attributes, server?.attributes);
    const minutes = dateTimeFormat(language, tz);
    const seconds = dateTimeFormat(language, tz, true);
    const ok = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);
    return {
      language, tz, speedUnit, distanceUnit, speedLabel: SPEED_LABEL[speedUnit], distanceLabel: DISTANCE_LABEL[distanceUnit],
      speed: (knots) => (ok(knots) ? formatSpeed(knots, speedUnit, language) : '—'),
      speedValue: (knots) => speedFromKnots(knots, speedUnit),
      distance: (metres) => (ok(metres) ? formatDistance(metres, distanceUnit, language) : '—'),
      distanceValue: (metres) => distanceFromMetres(metres, distanceUnit),
      time: (iso) => formatTime(iso, minutes),
      timeSeconds: (iso) => formatTime(iso, seconds),
      duration: (ms) => (ok(ms) ? formatDuration(ms) : '—'),
    };
  }, [user, server, language]);
}
