// What the motion step hands the position writer with a position: segments the machine
// closed and its new state. Rows are built at flush time (the positions' attributes are final
// then, and ids of earlier positions are known) and stored in the position's transaction.
import type { PositionDraft } from '../processing/position-draft.ts';
import {
  MOTION_STATE_WIDTH, SEGMENT_COLUMNS, SEGMENT_WIDTH, storedPositionRef,
} from '../processing/writer-protocol.ts';
import type { WindowFix } from './motion-window.ts';
import { segmentRecord, type Segment, type SegmentOptions } from './segments.ts';

/** A position the live machine hands out: a draft, or a stored one from its packed window. */
export type MotionPosition = PositionDraft | WindowFix;

export interface MotionWrite {
  segments: Array<Segment<MotionPosition>>;
  options: SegmentOptions;
  /** The machine's state after this position (null: unchanged). */
  state: { moving: boolean; start: MotionPosition; by: MotionPosition } | null;
  /** The position came late (older than the device's latest): the machine skipped it; so must replays. */
  late?: boolean;
}

interface ItemLike {
  position: PositionDraft;
}

/**
 * A position reference for a flush (writer-protocol resolvePositionRef): the item index when
 * the position is in this flush, its id when an earlier flush stored it, -1 when neither.
 */
export function positionRef(items: readonly ItemLike[], i: number, draft: { readonly id: number | null }): number {
  if (items[i]!.position === draft) return i;
  if (draft.id !== null) return storedPositionRef(draft.id);
  for (let j = i - 1; j >= 0; j--) if (items[j]!.position === draft) return j;
  return -1;
}

/** Appends the segment rows of item `i` to `segments` and records its device's state (last one wins). */
export function collectMotion(
  items: readonly ItemLike[], i: number, deviceId: number, write: MotionWrite, segments: unknown[], states: Map<number, unknown[]>,
): void {
  for (const s of write.segments) {
    const r = segmentRecord(s, write.options);
    const k = segments.length;
    segments.length = k + SEGMENT_WIDTH;
    for (let c = 0; c < SEGMENT_WIDTH; c++) {
      const column = SEGMENT_COLUMNS[c]!;
      segments[k + c] = column === 'deviceId' ? deviceId : r[column];
    }
    segments[k + SEGMENT_COLUMNS.indexOf('startPositionId')] = positionRef(items, i, s.start);
    segments[k + SEGMENT_COLUMNS.indexOf('endPositionId')] = positionRef(items, i, s.end);
    segments[k + SEGMENT_COLUMNS.indexOf('openedById')] = positionRef(items, i, s.openedBy);
    segments[k + SEGMENT_COLUMNS.indexOf('closedById')] = positionRef(items, i, s.closedBy);
  }
  if (write.late) {
    const p = items[i]!.position;
    const k = segments.length;
    segments.length = k + SEGMENT_WIDTH;
    for (let c = 0; c < SEGMENT_WIDTH; c++) segments[k + c] = 0;
    const set = (column: (typeof SEGMENT_COLUMNS)[number], v: unknown) => (segments[k + SEGMENT_COLUMNS.indexOf(column)] = v);
    set('deviceId', deviceId);
    set('kind', 'late');
    set('startTime', p.fixTime);
    set('endTime', p.fixTime);
    set('closedTime', p.fixTime);
    for (const column of ['startPositionId', 'endPositionId', 'openedById', 'closedById'] as const) set(column, i);
    set('startLat', p.latitude);
    set('startLon', p.longitude);
    set('endLat', p.latitude);
    set('endLon', p.longitude);
    for (const column of ['startAddress', 'endAddress', 'startHours', 'endHours', 'driverUniqueId'] as const) set(column, null);
  }
  const st = write.state;
  if (st) {
    const row = new Array<unknown>(MOTION_STATE_WIDTH);
    row[0] = deviceId;
    row[1] = st.moving ? 1 : 0;
    row[2] = positionRef(items, i, st.start);
    row[3] = positionRef(items, i, st.by);
    states.set(deviceId, row);
  }
}

/** The flat MOTION_STATE_COLUMNS values of the collected states. */
export function flattenStates(states: Map<number, unknown[]>): unknown[] {
  const out: unknown[] = [];
  for (const row of states.values()) out.push(...row);
  return out;
}
