// PUT /api/devices/:id/accumulators: sets the odometer (`totalDistance`, metres) and engine
// hours (`hours`, ms) by storing a copy of the latest position with those attributes changed,
// so processing continues counting from the new values.
//
// A device that never reported is refused with a 400 rather than given a made-up position at
// the server's default coordinates: such a position would put a marker where the vehicle is
// not, and the first real fix would add the distance from that spot to the odometer.
import { accumulatorsSchema } from '@rastro/domain/schemas/accumulators';
import { badRequest } from '../http/errors.ts';
import { parseAttributes } from '../http/json.ts';
import { parseWith } from '../http/validate.ts';
import type { AppContext } from '../context.ts';
import type { PositionsRepo } from '../positions/positions-repo.ts';
import { positionToJson } from '../positions/position-json.ts';
import type { DevicesRepo } from './devices-repo.ts';
import { deviceToJson, type DeviceRow } from './device-json.ts';

export interface Accumulators {
  totalDistance?: number;
  hours?: number;
}

export function parseAccumulators(raw: unknown, deviceId: number): Accumulators {
  const body = parseWith(accumulatorsSchema, raw);
  if (body.deviceId !== undefined && body.deviceId !== null && Number(body.deviceId) !== deviceId) {
    throw badRequest('Invalid accumulators - deviceId does not match the device in the address');
  }
  return {
    ...(body.totalDistance != null ? { totalDistance: body.totalDistance } : {}),
    ...(body.hours != null ? { hours: body.hours } : {}),
  };
}

export async function updateAccumulators(
  ctx: AppContext,
  devices: DevicesRepo,
  positions: PositionsRepo,
  device: DeviceRow,
  values: Accumulators,
): Promise<void> {
  const latest = device.positionId === null ? undefined : await positions.latestOf(device.id);
  if (!latest) {
    throw badRequest('No position yet - the device must report a position before its odometer or hours can be set');
  }
  const attributes = parseAttributes(latest.attributes);
  if (values.totalDistance !== undefined) attributes.totalDistance = values.totalDistance;
  if (values.hours !== undefined) attributes.hours = values.hours;
  const { id: _previousId, ...copy } = latest;
  const stored = await positions.insertLatest({ ...copy, serverTime: Date.now(), attributes: JSON.stringify(attributes) });
  const updated = await devices.findById(device.id);
  ctx.live.publish({ positions: [positionToJson(stored)], ...(updated ? { devices: [deviceToJson(updated)] } : {}) });
  // Caches holding the device's latest position (the processing pipeline's) must reload it.
  ctx.changes.publish({ kind: 'device', id: device.id });
}
