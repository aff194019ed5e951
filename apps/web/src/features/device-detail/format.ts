// Display rules of the detail panel: speed units (tarkan-reference §5.15), update age, pinned
// attribute lists (§5.12), external map links.
import type { Position } from '@rastro/domain/entities';
import { resolveDistanceUnit, resolveSpeedUnit, speedFromKnots, type DistanceUnit, type SpeedUnit } from '@rastro/domain/units';

export type { DistanceUnit, SpeedUnit };

/** The user's speedUnit, else the server's, else the language's (the shared rule the list uses too). */
export function speedUnitOf(user?: Record<string, unknown>, server?: Record<string, unknown>, language = 'pt-BR'): SpeedUnit {
  return resolveSpeedUnit(user, server, language);
}

/** The user's distanceUnit, else the server's, else the language's. */
export function distanceUnitOf(user?: Record<string, unknown>, server?: Record<string, unknown>, language = 'pt-BR'): DistanceUnit {
  return resolveDistanceUnit(user, server, language);
}

/** A duration in minutes as { h, m } (whole minutes, rounded). */
export function hoursMinutes(ms: number): { h: number; m: number } {
  const total = Math.max(0, Math.round(ms / 60_000));
  return { h: Math.floor(total / 60), m: total % 60 };
}

/** Knots → the unit, one decimal at most. */
export function convertSpeed(knots: number, unit: SpeedUnit): number {
  return Math.round(speedFromKnots(knots, unit) * 10) / 10;
}

/** Comma list → names (trimmed, no empties, no repeats). */
export function parseList(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return [...new Set(value.split(',').map((s) => s.trim()).filter(Boolean))];
}

export const joinList = (names: readonly string[]) => names.join(',');

export interface Pinned {
  name: string;
  scope: 'server' | 'user';
}

export function pinnedOf(server?: Record<string, unknown>, user?: Record<string, unknown>): Pinned[] {
  const out: Pinned[] = parseList(server?.['tarkan.deviceAttributes']).map((name) => ({ name, scope: 'server' as const }));
  for (const name of parseList(user?.['tarkan.deviceAttributes'])) if (!out.some((p) => p.name === name)) out.push({ name, scope: 'user' });
  return out;
}

/** A pinned name is looked up in the position's attributes, then its own fields. */
export function valueOf(position: Position | undefined, name: string): unknown {
  if (!position) return undefined;
  if (position.attributes && name in position.attributes) return position.attributes[name];
  return (position as unknown as Record<string, unknown>)[name];
}

/** Every non-null position field and attribute, for the "all attributes" list. */
export function allAttributes(position: Position | undefined): Array<[string, unknown]> {
  if (!position) return [];
  const out: Array<[string, unknown]> = [];
  for (const [k, v] of Object.entries(position)) {
    if (k === 'attributes' || k === 'network' || v === null || v === undefined || typeof v === 'object') continue;
    out.push([k, v]);
  }
  for (const [k, v] of Object.entries(position.attributes ?? {})) if (v !== null && v !== undefined) out.push([k, v]);
  return out;
}

/** Seconds elapsed as the largest whole unit, for Intl.RelativeTimeFormat. */
export function ageParts(fromMs: number, nowMs: number): { value: number; unit: 'second' | 'minute' | 'hour' | 'day' } {
  const s = Math.max(0, Math.round((nowMs - fromMs) / 1000));
  if (s > 86400) return { value: Math.floor(s / 86400), unit: 'day' };
  if (s > 3600) return { value: Math.floor(s / 3600), unit: 'hour' };
  if (s > 60) return { value: Math.floor(s / 60), unit: 'minute' };
  return { value: s, unit: 'second' };
}

export const googleMapsUrl = (lat: number, lon: number) => `https://www.google.com/maps/search/?api=1&query=${lat},${lon}`;
export const streetViewUrl = (lat: number, lon: number, heading = 0) =>
  `https://www.google.com/maps/@?api=1&map_action=pano&viewpoint=${lat},${lon}&heading=${Math.round(heading)}`;

const truthy = (v: unknown) => v === true || v === 'true';
export const boolAttr = (p: Position | undefined, key: string): boolean | null =>
  p && p.attributes && key in p.attributes ? truthy(p.attributes[key]) : null;
