// Rules of the device log view: who gets it, which frames belong to the device, how many are
// kept, and how a frame reads when copied.
import type { DeviceLogFrame } from '@rastro/domain/entities';

/** Frames kept on screen (and while paused); older ones are let go. */
export const DEVICE_LOG_MAX_FRAMES = 500;

/** Administrators and managers (Traccar: userLimit ≠ 0) diagnose trackers; others do not see the entry. */
export function mayViewDeviceLog(user: { administrator: boolean; userLimit?: number } | null | undefined): boolean {
  return !!user && (user.administrator || (user.userLimit ?? 0) !== 0);
}

export interface LogRow extends DeviceLogFrame {
  /** Stable key for the list (frames have no id). */
  key: number;
  /** Arrival time (epoch ms): the server's, else when the client received it. */
  at: number;
}

/** A frame of this device: by id, or by its unique id before the server bound it to the device. */
export function isFrameOf(frame: DeviceLogFrame, device: { id: number; uniqueId: string }): boolean {
  return frame.deviceId === device.id || (frame.deviceId === null && frame.uniqueId === device.uniqueId);
}

/** `rows` with `frames` added first (newest first), at most `max`. */
export function addRows(rows: readonly LogRow[], frames: readonly LogRow[], max = DEVICE_LOG_MAX_FRAMES): LogRow[] {
  const newest = [...frames].reverse();
  return newest.length >= max ? newest.slice(0, max) : [...newest, ...rows.slice(0, max - newest.length)];
}

/** What the copy button puts on the clipboard: time, protocol, remote and data on one line. */
export function frameText(row: LogRow): string {
  return `${new Date(row.at).toISOString()} ${row.protocol} ${row.host} ${row.data}`;
}
