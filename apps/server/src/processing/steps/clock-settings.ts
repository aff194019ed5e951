// Per-device settings of the clock steps, read through the attribute lookup (device -> groups
// -> configuration -> default) and cached per device until its attributes or the groups change:
// the steps ask on every message.
import type { AttributeLookup, DeviceSettingsSource } from '../../events/attribute-lookup.ts';
import { CONFIG_KEY_DEFAULTS } from '../../events/config-keys.ts';
import { parseTimeZone, type DeviceZone } from '../../device-clock/time-zone.ts';
import type { DeviceEntry } from '../device-cache.ts';

export interface ClockSettings {
  /** How far ahead of the server a fix may be dated and still become the latest (ms; `filter.future`; Infinity = no limit). */
  futureMs: number;
  /** `decoder.timezone` as set (null when unset). */
  zoneText: string | null;
  /** The zone it names; null when unset or not understood (dates are then read as UTC, as Traccar). */
  zone: DeviceZone | null;
}

export const DEFAULT_FUTURE_MS = CONFIG_KEY_DEFAULTS['filter.future'] * 1000;
export const DEFAULT_CLOCK_SETTINGS: ClockSettings = { futureMs: DEFAULT_FUTURE_MS, zoneText: null, zone: null };

export type ClockSettingsOf = (entry: DeviceEntry) => ClockSettings;

/** Settings from the lookup; without one (unit tests, bare pipelines) the built-in defaults. */
export function clockSettings(lookup?: AttributeLookup): ClockSettingsOf {
  if (!lookup) return () => DEFAULT_CLOCK_SETTINGS;
  const cache = new WeakMap<DeviceEntry, { json: DeviceEntry['json']; version: number; settings: ClockSettings }>();
  return (entry) => {
    let hit = cache.get(entry);
    if (!hit || hit.json !== entry.json || hit.version !== lookup.version) {
      hit = { json: entry.json, version: lookup.version, settings: readSettings(lookup, entry) };
      cache.set(entry, hit);
    }
    return hit.settings;
  };
}

export function readSettings(lookup: AttributeLookup, entry: DeviceSettingsSource): ClockSettings {
  const raw = lookup.get(entry, 'decoder.timezone', { server: false });
  const zoneText = raw === undefined || raw === null ? null : String(raw).trim() || null;
  const seconds = lookup.number(entry, 'filter.future');
  return {
    // 0 turns the rule off, as it turns Traccar's filter off.
    futureMs: seconds > 0 ? seconds * 1000 : Number.POSITIVE_INFINITY,
    zoneText,
    zone: zoneText === null ? null : parseTimeZone(raw),
  };
}
