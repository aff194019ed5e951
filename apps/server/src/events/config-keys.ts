// Traccar configuration keys (scope CONFIG in the reference's key registry, appendix D) that
// the events engine and the motion logic read, with their built-in defaults. Traccar reads them
// from its XML file; Rastro from environment variables named like Traccar's own env mapping:
// `RASTRO_` + the key with dots as `_` and camelCase split, upper-cased, e.g.
// `event.overspeed.minimalDuration` -> RASTRO_EVENT_OVERSPEED_MINIMAL_DURATION.
// Pure (no imports from the server) so config.ts can call it.

export type ConfigValue = number | boolean | string;

/** key -> built-in default; the default's type is the value's type. */
export const CONFIG_KEY_DEFAULTS = {
  'event.overspeed.thresholdMultiplier': 1.0,
  /** Seconds the excess must last before the event (0: at once). */
  'event.overspeed.minimalDuration': 0,
  'event.overspeed.preferLowest': false,
  'event.ignoreDuplicateAlerts': true,
  'event.status.enable': false,
  'event.motion.speedThreshold': 0.01,
  'event.geofence.segmentCrossing': false,
  'event.behavior.accelerationThreshold': 0,
  'event.behavior.brakingThreshold': 0,
  /** Rastro: how often the deviceInactive check runs, ms (Traccar: every 15 min). 0 disables it (secondary instances). */
  'event.inactivity.checkInterval': 900_000,
  /**
   * Seconds a fix may be dated ahead of the server's clock and still become the device's latest
   * position (Traccar: 86,400, and it drops such fixes). A GPS fix cannot come from the future:
   * beyond a few minutes the device clock is wrong (often set to a zone east of UTC), so Rastro
   * stores the fix but never shows it as the latest. Also a device/group attribute.
   */
  'filter.future': 600,
  /**
   * Attributes a position lacks that are copied from the device's previous position (comma or
   * space separated; Traccar's `processing.copyAttributes`, whose handler Traccar also needs
   * `processing.copyAttributes.enable` for). GT06 units report the engine cut (`blocked`) only
   * in status packets, never in location packets: without the copy the latest position would
   * lose it. Also a device/group attribute; `none` copies nothing.
   */
  'processing.copyAttributes': 'blocked',
  'report.trip.newLogic': true,
  'report.trip.minDistance': 200,
  'report.trip.minDuration': 180,
  'report.trip.stopGap': 3600,
  'report.trip.minimalTripDistance': 500,
  'report.trip.minimalTripDuration': 300,
  'report.trip.minimalParkingDuration': 300,
  'report.trip.minimalNoDataDuration': 3600,
  'report.trip.useIgnition': false,
  'report.ignoreOdometer': false,
  /**
   * Longest period (seconds) a report or a position history may cover; 0 = no limit. On by
   * default (366 days: a yearly summary still fits) so no request can ask for centuries. The
   * server attribute of the same name, when set, wins (reports/report-request.ts).
   */
  'report.periodLimit': 366 * 86_400,
} satisfies Record<string, ConfigValue>;

export type ConfigKey = keyof typeof CONFIG_KEY_DEFAULTS;

/** `event.overspeed.minimalDuration` -> `RASTRO_EVENT_OVERSPEED_MINIMAL_DURATION`. */
export function envName(key: string): string {
  return 'RASTRO_' + key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/\./g, '_').toUpperCase();
}

/** The configured keys (only those set in `env`), or the first bad value's message. */
export function parseConfigKeys(env: Record<string, string | undefined>): { values: Record<string, ConfigValue> } | { error: string } {
  const values: Record<string, ConfigValue> = {};
  for (const [key, fallback] of Object.entries(CONFIG_KEY_DEFAULTS)) {
    const name = envName(key);
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') continue;
    if (typeof fallback === 'string') values[key] = raw;
    else if (typeof fallback === 'boolean') {
      const v = raw.toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(v)) values[key] = true;
      else if (['0', 'false', 'no', 'off'].includes(v)) values[key] = false;
      else return { error: `${name} must be 1 or 0 (true/false), got "${raw}"` };
    } else {
      const n = Number(raw);
      if (!Number.isFinite(n) || n < 0) return { error: `${name} must be a number ≥ 0, got "${raw}"` };
      values[key] = n;
    }
  }
  return { values };
}
