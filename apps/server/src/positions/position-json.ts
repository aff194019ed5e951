// Row -> API JSON for positions (REST answers and live pushes share it). address, network and
// geofenceIds are always sent, null when empty, as Traccar sends them (geofenceIds is null, not
// [], outside every geofence).
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

/** The numeric ids of a stored list; null when there is none (or nothing usable in it). */
export function geofenceIdList(value: unknown): number[] | null {
  if (!Array.isArray(value)) return null;
  const ids = value.filter((id): id is number => typeof id === 'number');
  return ids.length > 0 ? ids : null;
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
    address: row.address === '' ? null : row.address,
    accuracy: row.accuracy,
    network: network && typeof network === 'object' && !Array.isArray(network) ? (network as Network) : null,
    geofenceIds: geofenceIdList(geofenceIds),
    attributes: parseAttributes(row.attributes, 'position.attributes', row.id),
  };
}
