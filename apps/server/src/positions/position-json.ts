// Row -> API JSON for positions (REST answers and live pushes share it). Optional fields
// (address, network, geofenceIds) are left out when empty, as Traccar's serializer does.
import type { Network, Position } from '@rastro/domain/entities';
import type { Selectable } from 'kysely';
import type { PositionTable } from '../storage/schema.ts';
import { parseAttributes, toBool, toIso } from '../http/json.ts';

export type PositionRow = Selectable<PositionTable>;

function parseJson(text: string | null): unknown {
  if (text === null || text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export function positionToJson(row: PositionRow): Position {
  const network = parseJson(row.network);
  const geofenceIds = parseJson(row.geofenceIds);
  return {
    id: row.id,
    deviceId: row.deviceId,
    protocol: row.protocol,
    serverTime: toIso(row.serverTime, 'position.serverTime', row.id),
    deviceTime: toIso(row.deviceTime, 'position.deviceTime', row.id),
    fixTime: toIso(row.fixTime, 'position.fixTime', row.id),
    valid: toBool(row.valid),
    latitude: row.latitude,
    longitude: row.longitude,
    altitude: row.altitude,
    speed: row.speed,
    course: row.course,
    ...(row.address !== null ? { address: row.address } : {}),
    accuracy: row.accuracy,
    ...(network && typeof network === 'object' && !Array.isArray(network) ? { network: network as Network } : {}),
    ...(Array.isArray(geofenceIds) ? { geofenceIds: geofenceIds.filter((id): id is number => typeof id === 'number') } : {}),
    attributes: parseAttributes(row.attributes, 'position.attributes', row.id),
  };
}
