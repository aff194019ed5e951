// The domain's range rules (packages/domain/src/schemas/ranges.ts) applied to one decoded fix
// of a tracker protocol. A hardware tracker that sends one impossible value (a GPS glitch, a
// corrupted field) must not lose its connection, nor the good reports buffered behind it, nor
// the alarm the same report carries. So nothing is refused here: a fix whose position, motion
// or time is impossible becomes an outdated fix stamped with the arrival time (the pipeline
// places it at the device's last known position, its attributes kept), a ranged attribute
// outside its range is removed, and text attributes lose the characters a database cannot hold.
import { isInstantInRange } from '@rastro/domain/schemas/instant';
import { inRange, type RangeName } from '@rastro/domain/schemas/ranges';
import { textProblem } from '@rastro/domain/schemas/text';
import type { DecodedFix } from './decoded.ts';

/** Attributes with a physical range: a value outside it says nothing and is dropped. */
const ATTRIBUTE_RANGES: Readonly<Record<string, RangeName>> = {
  batteryLevel: 'battery',
  odometer: 'odometer',
  hours: 'hours',
};

/** Whether the position, motion and times of a fix are all physically possible. */
export function locatedInRange(fix: DecodedFix): boolean {
  return inRange('latitude', fix.latitude) && inRange('longitude', fix.longitude)
    && inRange('speed', fix.speed) && inRange('course', fix.course)
    && inRange('altitude', fix.altitude) && inRange('accuracy', fix.accuracy)
    && isInstantInRange(fix.fixTime) && isInstantInRange(fix.deviceTime);
}

/**
 * The fix made safe to store (changed in place): an impossible position or time turns it into
 * an outdated fix stamped `now`; out-of-range attributes are removed; NUL characters (which
 * PostgreSQL text cannot hold) are taken out of text attributes.
 */
export function fixInRange(fix: DecodedFix, now: number): DecodedFix {
  if (!locatedInRange(fix)) {
    fix.outdated = true;
    fix.valid = false;
    fix.latitude = fix.longitude = fix.altitude = fix.speed = fix.course = fix.accuracy = 0;
    fix.deviceTime = fix.fixTime = now;
    delete fix.clock;
  }
  for (const [key, range] of Object.entries(ATTRIBUTE_RANGES)) {
    const value = fix.attributes[key];
    if (value !== undefined && (typeof value !== 'number' || !inRange(range, value))) delete fix.attributes[key];
  }
  for (const [key, value] of Object.entries(fix.attributes)) {
    if (typeof value !== 'string' || textProblem(value) === null) continue;
    const cleaned = value.replaceAll('\u0000', '');
    if (textProblem(cleaned) === null) fix.attributes[key] = cleaned;
    else delete fix.attributes[key];
  }
  return fix;
}
