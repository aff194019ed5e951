// Status of a device as the combined status filter sees it (spec §4) and the counts per status
// shown as filter chips (over the searched set, reference §5.3).
import type { Device, Position } from './entities.ts';

export type StatusFilter = 'all' | 'online' | 'offline' | 'unknown' | 'moving' | 'stopped';
export const STATUS_FILTERS: readonly StatusFilter[] = ['all', 'online', 'offline', 'unknown', 'moving', 'stopped'];

export type StatusCounts = Record<StatusFilter, number>;

export const emptyCounts = (): StatusCounts => ({ all: 0, online: 0, offline: 0, unknown: 0, moving: 0, stopped: 0 });

/** Moving: the latest position's motion attribute is true. */
export const isMoving = (position: Position | null | undefined): boolean => position?.attributes?.motion === true;

/** Stopped: online without motion. */
export const isStopped = (device: Device, position: Position | null | undefined): boolean =>
  device.status === 'online' && !isMoving(position);

export function matchesStatus(filter: StatusFilter, device: Device, position: Position | null | undefined): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'moving':
      return isMoving(position);
    case 'stopped':
      return isStopped(device, position);
    default:
      return device.status === filter;
  }
}

/** Adds one device to the counts (mutates; used by the list pipeline in one pass). */
export function addToCounts(counts: StatusCounts, device: Device, position: Position | null | undefined): void {
  counts.all += 1;
  const online = device.status === 'online';
  if (online) counts.online += 1;
  else if (device.status === 'offline') counts.offline += 1;
  else counts.unknown += 1;
  if (position !== undefined && position !== null && position.attributes?.motion === true) counts.moving += 1;
  else if (online) counts.stopped += 1;
}

export function countDevices(devices: Iterable<Device>, positions: Readonly<Record<number, Position | undefined>>): StatusCounts {
  const counts = emptyCounts();
  for (const d of devices) addToCounts(counts, d, positions[d.id]);
  return counts;
}
