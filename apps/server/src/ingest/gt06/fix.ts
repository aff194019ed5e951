// Turning what a GT06 packet said into the fix the pipeline takes.
import type { Network } from '@rastro/domain/entities';
import { emptyFix, type DecodedFix } from '../decoded.ts';
import { fixInRange } from '../fix-in-range.ts';
import { GT06 } from './constants.ts';
import type { GpsFix } from './gps-block.ts';
import { attributesOf, type Facts } from './status.ts';

/** The GPS block's own attributes, before the status bytes (which may say ignition again, and win). */
export function gpsFacts(facts: Facts, gps: GpsFix | null): void {
  if (!gps) return;
  facts.attributes.sat = gps.satellites;
  if (gps.ignition !== undefined) facts.attributes.ignition = gps.ignition;
}

/**
 * A located fix from the GPS block, or — when the packet has none, or an impossible date or
 * coordinate — an outdated fix stamped `now`, which the pipeline places at the device's last
 * known position: an alarm or an ignition change is never lost to a glitch, and the unit still
 * gets its answer (closing the connection would only make it send the same packet again).
 */
export function fixOf(facts: Facts, gps: GpsFix | null, network: Network | null, now: number): DecodedFix {
  const fix = emptyFix(GT06, now);
  fix.network = network;
  fix.attributes = attributesOf(facts);
  if (!gps) {
    fix.outdated = true;
    return fixInRange(fix, now);
  }
  fix.deviceTime = fix.fixTime = gps.time;
  if (gps.clock === 'device') fix.clock = 'device';
  fix.valid = gps.valid;
  fix.latitude = gps.latitude;
  fix.longitude = gps.longitude;
  fix.speed = gps.speed;
  fix.course = gps.course;
  return fixInRange(fix, now);
}
