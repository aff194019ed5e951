// What the position writer hands its store for one flush, and the messages between the main
// thread and the SQLite writer thread. No runtime imports: the writer thread loads this file
// too and must stay small.
import type { PositionColumns } from './position-draft.ts';

export const POSITION_COLUMNS = [
  'deviceId', 'protocol', 'serverTime', 'deviceTime', 'fixTime', 'valid', 'latitude', 'longitude', 'altitude',
  'speed', 'course', 'address', 'accuracy', 'network', 'geofenceIds', 'attributes',
] as const satisfies ReadonlyArray<keyof PositionColumns>;

/** Event columns in the order the writer sends them. */
export const EVENT_COLUMNS = ['type', 'eventTime', 'deviceId', 'positionId', 'geofenceId', 'maintenanceId', 'attributes'] as const;

export const POSITION_WIDTH = POSITION_COLUMNS.length;
export const EVENT_WIDTH = EVENT_COLUMNS.length;
/** Where `positionId` sits in an event's values: the writer puts the index of the event's position there. */
export const EVENT_POSITION: number = EVENT_COLUMNS.indexOf('positionId');
/** Trip/stop segment columns (motion/, table motionSegments) in the order the writer sends them. */
export const SEGMENT_COLUMNS = [
  'deviceId', 'kind', 'startTime', 'endTime', 'closedTime', 'startPositionId', 'endPositionId', 'openedById', 'closedById',
  'startLat', 'startLon', 'endLat', 'endLon', 'startAddress', 'endAddress', 'distance', 'maxSpeed', 'startOdometer',
  'endOdometer', 'spentFuel', 'startHours', 'endHours', 'driverUniqueId',
] as const;
export const SEGMENT_WIDTH = SEGMENT_COLUMNS.length;
/** Where the position references sit in a segment's values. */
export const SEGMENT_REFS = [5, 6, 7, 8] as const;
/** Motion state per device (table motionStates, upserted): deviceId, moving, startPositionId, decidedById. */
export const MOTION_STATE_COLUMNS = ['deviceId', 'moving', 'startPositionId', 'decidedById'] as const;
export const MOTION_STATE_WIDTH = MOTION_STATE_COLUMNS.length;
export const MOTION_STATE_REFS = [2, 3] as const;

/**
 * A position reference in a flush: an index >= 0 into this flush's positions; -1 (or null)
 * for none; `storedPositionRef(id)` (= -2 - id) for a position stored by an earlier flush.
 */
export function resolvePositionRef(ref: unknown, positionIds: readonly number[]): number | null {
  if (typeof ref !== 'number' || ref === -1) return null;
  return ref >= 0 ? (positionIds[ref] ?? null) : -2 - ref;
}

export const storedPositionRef = (id: number): number => -2 - id;

/** Values per device in `FlushRequest.devices`: id, status, lastUpdate, positionId, latest. */
export const DEVICE_FIELDS = 5;

/** One flush as plain values (JSON columns already serialised), cheap to post to a thread. */
export interface FlushRequest {
  /** POSITION_COLUMNS values, position after position, in write order. */
  positions: unknown[];
  /** EVENT_COLUMNS values, event after event; `positionId` holds the index of the event's position (-1: none, stored as 0) or another position reference (resolvePositionRef). */
  events: unknown[];
  /**
   * DEVICE_FIELDS values per device: id, status, lastUpdate, positionId, latest — `latest` is
   * the index of the position that becomes the device's latest, or -1 to keep `positionId`.
   */
  devices: unknown[];
  /**
   * Hidden device columns to set (overspeed / motion state), as triples: device id, column
   * name, value — applied in order after the device rows. Column names come from server code only.
   */
  deviceColumns?: unknown[];
  /** SEGMENT_COLUMNS values, segment after segment (position references as in resolvePositionRef). */
  segments?: unknown[];
  /** MOTION_STATE_COLUMNS values, at most one row per device (position references as in resolvePositionRef). */
  motionStates?: unknown[];
}

/** A column name the writer accepts in `deviceColumns` (they are spliced into SQL). */
export const DEVICE_COLUMN_NAME = /^[A-Za-z][A-Za-z0-9]*$/;

export interface FlushResult {
  /** Ids of the positions, in request order. */
  positionIds: number[];
  /** Ids of the events, in request order. */
  eventIds: number[];
}

/** The writer thread's `workerData`. */
export interface WriterThreadInit {
  file: string;
  /** Single-row statements (writer-sql.ts), prepared once by the thread. */
  statements: { insertPosition: string; insertEvent: string; updateDevice: string; insertSegment: string; upsertMotionState: string };
  busyTimeoutMs: number;
  /** The thread checkpoints the WAL after every this many flushes (SQLite's own autocheckpoint is off on its connection)… */
  checkpointEvery: number;
  /** …and no sooner than this many ms after the previous checkpoint. */
  checkpointIntervalMs: number;
}

export type ToWriterThread = { type: 'flush'; id: number; request: FlushRequest } | { type: 'close' };

export type FromWriterThread =
  | { type: 'ready' }
  | ({ type: 'done'; id: number; ms: number } & FlushResult)
  | { type: 'failed'; id: number; error: { name: string; message: string; code?: string } };
