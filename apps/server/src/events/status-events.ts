// deviceOnline / deviceOffline / deviceUnknown: raised on device status transitions (the
// pipeline marks a device online on every message; the StatusMonitor sweep marks silent ones
// unknown; a stateful protocol marks a device offline when its connection closes), only when
// `event.status.enable` is on (Traccar default: off). Device events: no position, dated now.
import type { DeviceStatus } from '@rastro/domain/entities';
import type { EventDraft } from '../processing/event-draft.ts';
import { newEvent } from './event.ts';

const TYPES: Record<DeviceStatus, string> = { online: 'deviceOnline', offline: 'deviceOffline', unknown: 'deviceUnknown' };

/** The event for a status change, or null when the status did not change (null counts as offline). */
export function statusEvent(before: DeviceStatus | null, after: DeviceStatus, now: number): EventDraft | null {
  if ((before ?? 'offline') === after) return null;
  return newEvent(TYPES[after], now);
}
