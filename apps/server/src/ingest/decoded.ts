// What a protocol decoder hands to the processing pipeline: the device's unique id and one
// fix in Traccar units (knots, metres, degrees, epoch ms). Decoders know nothing about the
// database; the pipeline resolves the device and fills what the decoder could not.
import type { Network } from '@rastro/domain/entities';
import { NAME_MAX } from '@rastro/domain/schemas/fields';
import { isInstantInRange } from '@rastro/domain/schemas/instant';
import { inRange, rangeText, type RangeName } from '@rastro/domain/schemas/ranges';
import { textProblem } from '@rastro/domain/schemas/text';

export interface DecodedFix {
  protocol: string;
  deviceTime: number;
  fixTime: number;
  /** No coordinates in the message: the pipeline reuses the device's last fix. */
  outdated: boolean;
  valid: boolean;
  latitude: number;
  longitude: number;
  altitude: number;
  speed: number;
  course: number;
  accuracy: number;
  network: Network | null;
  attributes: Record<string, unknown>;
  /**
   * Whose clock `deviceTime`/`fixTime` come from: `utc` (the protocol says UTC or carries the
   * zone), or `device` (a zone-less date from the device's own clock, which trackers are often
   * set to local time: the device's `decoder.timezone` attribute corrects it). Absent = utc.
   */
  clock?: 'utc' | 'device';
}

export interface DecodedMessage {
  uniqueId: string;
  fix: DecodedFix;
  /** Push token announced by the device (Traccar Client); kept in the device's attributes. */
  notificationToken?: string;
}

/** A message the decoder refuses; the listener answers with `status` and stores nothing. */
export class DecodeError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export const inLatitudeRange = (v: number): boolean => inRange('latitude', v);
export const inLongitudeRange = (v: number): boolean => inRange('longitude', v);

/** `value` when it lies in the domain's physical range for `name` (ranges.ts), else a 400 naming `label`. */
export function checkRange(name: RangeName, label: string, value: number): number {
  if (!inRange(name, value)) throw new DecodeError(`Invalid ${label} ${String(value).slice(0, 40)} - must be a number ${rangeText(name)}`);
  return value;
}

export const instantOutOfRange = (label: string) => new DecodeError(`Invalid ${label} - the date must be from 1970 to 2200`);

/** `ms` when it is an instant of 1970–2200 (the domain's rule), else a 400 naming `label`. */
export function checkInstant(label: string, ms: number): number {
  if (!isInstantInRange(ms)) throw instantOutOfRange(label);
  return ms;
}

/** The device's unique id, when it is a text the database can look up (no NUL, no lone surrogate). */
export function checkUniqueId(uniqueId: string): string {
  const problem = uniqueId.length > NAME_MAX ? `at most ${NAME_MAX} characters` : textProblem(uniqueId);
  if (problem) throw new DecodeError(`Invalid id - ${problem}`);
  return uniqueId;
}

/** A fix with every field at its "nothing known" value, stamped `now`. */
export function emptyFix(protocol: string, now: number): DecodedFix {
  return {
    protocol,
    deviceTime: now,
    fixTime: now,
    outdated: false,
    valid: true,
    latitude: 0,
    longitude: 0,
    altitude: 0,
    speed: 0,
    course: 0,
    accuracy: 0,
    network: null,
    attributes: {},
  };
}
