// One position's trip through the processing steps. Steps read and change the Work; the
// pipeline runs them in order, per device, and hands the result to the storage writer.
import type { DeviceEntry } from './device-cache.ts';
import type { EventDraft } from './event-draft.ts';
import type { PositionDraft } from './position-draft.ts';
import type { MotionWrite } from '../motion/motion-write.ts';

export interface Work {
  entry: DeviceEntry;
  position: PositionDraft;
  /** The device's latest position before this one (null for its first). */
  previous: PositionDraft | null;
  /** Whether the position becomes the device's latest; decided by the `order` step. */
  latest: boolean;
  /** Events raised by steps, stored with the position. */
  events: EventDraft[];
  /** Set by a filter: the position is acknowledged but not stored, and later steps are skipped. */
  dropped: string | null;
  /** When the message was received (serverTime). */
  now: number;
  /**
   * Hidden device columns a step changed (Traccar keeps overspeed and motion state on the
   * device row: `overspeedState`, `motionStreak`, …), written in the position's transaction.
   * Left undefined in the common case (no allocation); a step sets `work.deviceColumns ??= {}`.
   */
  deviceColumns?: Record<string, unknown>;
  /** Trip/stop segments closed and motion state changed by the motion step (undefined otherwise). */
  motion?: MotionWrite;
}

/**
 * A processing step. Synchronous steps cost nothing extra; a step may return a promise
 * (geocoding, lookups) and the device's next message waits for it.
 */
export interface Step {
  name: string;
  run(work: Work): void | Promise<void>;
}
