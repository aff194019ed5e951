// Periods and times in the user's time zone (user attribute `timezone`, else the server's, else
// the browser's): the period shortcuts of spec §9 (today, yesterday, last 7/30/90 days, custom),
// datetime-local values read and written as wall time in that zone, and duration texts.

import { wallAt } from '@rastro/domain/calendar-form';

export const PERIODS = ['today', 'yesterday', 'last7', 'last30', 'last90', 'custom'] as const;
export type PeriodKey = (typeof PERIODS)[number];

const DAY_MS = 86_400_000;

export const isPeriod = (v: unknown): v is PeriodKey => typeof v === 'string' && (PERIODS as readonly string[]).includes(v);

/** A usable IANA zone name, else undefined (the browser's zone). */
export function zoneOf(user?: Record<string, unknown> | null, server?: Record<string, unknown> | null): string | undefined {
  for (const v of [user?.timezone, server?.timezone]) {
    if (typeof v !== 'string' || !v) continue;
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: v });
      return v;
    } catch {
      // Unknown zone name: try the next one.
    }
  }
  return undefined;
}

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock reading of an instant in a zone (the browser's when none is given). */
export function wallTime(ms: number, tz: string | undefined): Wall {
  return wallAt(ms, tz ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
}

/** Zone offset (ms, local − UTC) at an instant. */
export function zoneOffset(ms: number, tz: string | undefined): number {
  const w = wallTime(ms, tz);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant a wall-clock reading names in the zone. */
export function fromWall(w: Wall, tz: string | undefined): number {
  const local = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  const guess = local - zoneOffset(local, tz);
  return local - zoneOffset(guess, tz);
}

export function startOfDay(ms: number, tz: string | undefined): number {
  const w = wallTime(ms, tz);
  return fromWall({ ...w, hour: 0, minute: 0, second: 0 }, tz);
}

/** The instant range of a shortcut at `now` (a custom period is handled by the caller). */
export function periodRange(key: Exclude<PeriodKey, 'custom'>, now: number, tz: string | undefined): { from: number; to: number } {
  const today = startOfDay(now, tz);
  switch (key) {
    case 'today':
      return { from: today, to: now };
    case 'yesterday': {
      const from = startOfDay(today - DAY_MS / 2, tz);
      return { from, to: today - 1 };
    }
    default: {
      const days = key === 'last7' ? 7 : key === 'last30' ? 30 : 90;
      // The calendar days ending today: today and the days before it.
      const from = startOfDay(today - (days - 1) * DAY_MS + DAY_MS / 2, tz);
      return { from, to: now };
    }
  }
}

const pad = (n: number, size = 2) => String(n).padStart(size, '0');

/** An instant as a datetime-local input value ("2026-05-01T08:30") in the zone. */
export function toLocalInput(ms: number, tz: string | undefined): string {
  const w = wallTime(ms, tz);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/** A datetime-local input value read as wall time in the zone; NaN when it is not one. */
export function fromLocalInput(value: string, tz: string | undefined): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!m) return NaN;
  return fromWall({ year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: +m[4]!, minute: +m[5]!, second: +(m[6] ?? 0) }, tz);
}

/** "2 h 05 min", "12 min", "40 s" (the same abbreviations in pt-BR, es and en). */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h > 0) return `${h} h ${pad(m)} min`;
  if (m > 0) return `${m} min`;
  return `${s} s`;
}

/** Date and time in the user's language and zone. */
export function dateTimeFormat(language: string, tz: string | undefined, withSeconds = false): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(language, {
    timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: withSeconds ? '2-digit' : undefined,
  });
}

export function formatTime(iso: string | null | undefined, f: Intl.DateTimeFormat): string {
  const ms = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(ms) ? f.format(ms) : '—';
}
