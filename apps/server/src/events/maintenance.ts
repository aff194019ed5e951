// maintenance: a service interval crossed between the previous and the current position.
// A maintenance has `type` (a position attribute key such as totalDistance, odometer, hours —
// or serverTime/deviceTime/fixTime, epoch ms), `start` and `period`. It fires when old and new
// values are both non-zero, new ≥ start, and either old < start or the count of whole periods
// since start grew: ⌊(old−start)/period⌋ < ⌊(new−start)/period⌋. Period 0 = never.
//
// HOOK: maintenance entities are stored (maintenance/maintenance-resource.ts, table
// `maintenances`, linked to devices/groups, 'maintenance' changes published), but nothing
// reads them here yet. A MaintenanceSource (the maintenances applying to a device, held in
// memory like the geofence cache) is to be given to the events engine (engine.ts:
// `EventsEngine.maintenances`); until then the engine has none and raises no maintenance event.
import type { EventDraft } from '../processing/event-draft.ts';
import type { PositionDraft } from '../processing/position-draft.ts';
import type { DeviceEntry } from '../processing/device-cache.ts';
import { asNumber, positionEvent } from './event.ts';

export interface Maintenance {
  id: number;
  type: string;
  start: number;
  period: number;
}

/** The maintenances applying to a device (directly or through its groups). */
export interface MaintenanceSource {
  forDevice(entry: DeviceEntry): readonly Maintenance[];
}

export const noMaintenances: MaintenanceSource = { forDevice: () => [] };

/** Whether moving from `oldValue` to `newValue` crosses a service point of (start, period). */
export function maintenanceCrossed(oldValue: number, newValue: number, start: number, period: number): boolean {
  if (period === 0 || oldValue === 0 || newValue === 0) return false;
  if (newValue < start) return false;
  if (oldValue < start) return true;
  return Math.floor((oldValue - start) / period) < Math.floor((newValue - start) / period);
}

/** The value a maintenance type reads from a position (0 when absent, like Traccar). */
export function maintenanceValue(position: PositionDraft, type: string): number {
  switch (type) {
    case 'serverTime':
      return position.serverTime;
    case 'deviceTime':
      return position.deviceTime;
    case 'fixTime':
      return position.fixTime;
    default:
      return asNumber(position.attributes[type]) ?? 0;
  }
}

export function maintenanceEvents(out: EventDraft[], position: PositionDraft, previous: PositionDraft | null, maintenances: readonly Maintenance[]): void {
  if (!previous) return;
  for (const m of maintenances) {
    if (m.period === 0) continue;
    const oldValue = maintenanceValue(previous, m.type);
    const newValue = maintenanceValue(position, m.type);
    if (maintenanceCrossed(oldValue, newValue, m.start, m.period)) {
      out.push(positionEvent('maintenance', position, { [m.type]: newValue }, 0, m.id));
    }
  }
}
