// Reads the socket needs outside the live feed: the latest position of a set of devices (sent
// on connect, and when a device becomes visible) and device rows (pushed after edits).
import type { Device, Position } from '@rastro/domain/entities';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { notDeletedDevice } from '../access/visibility.ts';
import { positionToJson } from '../positions/position-json.ts';
import { DEVICE_JSON_COLUMNS, deviceToJson } from '../devices/device-json.ts';

// Keeps `IN (...)` lists well below every driver's bound-parameter limit.
const CHUNK = 500;

function chunks(ids: Iterable<number>): number[][] {
  const all = [...ids];
  const result: number[][] = [];
  for (let i = 0; i < all.length; i += CHUNK) result.push(all.slice(i, i + CHUNK));
  return result;
}

/** Latest stored position (devices.positionId) of the given devices, or of all devices. */
export async function latestPositions(db: Kysely<Database>, deviceIds: Iterable<number> | 'all'): Promise<Position[]> {
  const base = () =>
    db
      .selectFrom('devices')
      .innerJoin('positions', 'positions.id', 'devices.positionId')
      .selectAll('positions')
      .where(notDeletedDevice('devices.uniqueId'));
  if (deviceIds === 'all') return (await base().execute()).map(positionToJson);
  const result: Position[] = [];
  for (const ids of chunks(deviceIds)) {
    const rows = await base().where('devices.id', 'in', ids).execute();
    for (const row of rows) result.push(positionToJson(row));
  }
  return result;
}

export async function devicesByIds(db: Kysely<Database>, deviceIds: Iterable<number>): Promise<Device[]> {
  const result: Device[] = [];
  for (const ids of chunks(deviceIds)) {
    const rows = await db
      .selectFrom('devices')
      .select(DEVICE_JSON_COLUMNS)
      .where('id', 'in', ids)
      .where(notDeletedDevice('devices.uniqueId'))
      .execute();
    for (const row of rows) result.push(deviceToJson(row));
  }
  return result;
}
