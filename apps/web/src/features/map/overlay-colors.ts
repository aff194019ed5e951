// Route colours by speed: a fixed scale in km/h (so a colour means the same speed on every
// route), the server's knots converted through the shared units rule.
import { knotsToKmh } from '@rastro/domain/units';

/** Upper bounds in km/h of each band; the last colour is for anything faster. */
export const SPEED_BANDS_KMH = [5, 30, 60, 90, 120] as const;
export const SPEED_COLORS = ['#64748b', '#15803d', '#65a30d', '#ca8a04', '#ea580c', '#b91c1c'] as const;

export function speedBand(knots: number): number {
  const kmh = knotsToKmh(Number.isFinite(knots) ? knots : 0);
  let band = 0;
  while (band < SPEED_BANDS_KMH.length && kmh >= SPEED_BANDS_KMH[band]!) band++;
  return band;
}

export const speedColor = (knots: number): string => SPEED_COLORS[speedBand(knots)]!;
