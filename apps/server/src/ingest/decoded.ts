// What a protocol decoder hands to the processing pipeline: the device's unique id and one
// fix in Traccar units (knots, metres, degrees, epoch ms). Decoders know nothing about the
// database; the pipeline resolves the device and fills what the decoder could not.
import type { Network } from '@rastro/domain/entities';

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

export const inLatitudeRange = (v: number): boolean => Number.isFinite(v) && v >= -90 && v <= 90;
export const inLongitudeRange = (v: number): boolean => Number.isFinite(v) && v >= -180 && v <= 180;

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
