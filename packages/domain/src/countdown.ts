// Spec §9 countdown units for shared sessions: days above 86,400 s, hours above 3,600 s,
// minutes above 60 s, else seconds. Values are rounded up so "1 day" is never shown while
// more than a day remains.

export type CountdownUnit = 'days' | 'hours' | 'minutes' | 'seconds';

export interface Countdown {
  value: number;
  unit: CountdownUnit;
  expired: boolean;
}

export function countdown(expirationMs: number, nowMs: number): Countdown {
  const seconds = Math.round((expirationMs - nowMs) / 1000);
  if (seconds < 0) return { value: 0, unit: 'seconds', expired: true };
  if (seconds > 86_400) return { value: Math.ceil(seconds / 86_400), unit: 'days', expired: false };
  if (seconds > 3_600) return { value: Math.ceil(seconds / 3_600), unit: 'hours', expired: false };
  if (seconds > 60) return { value: Math.ceil(seconds / 60), unit: 'minutes', expired: false };
  return { value: seconds, unit: 'seconds', expired: false };
}
