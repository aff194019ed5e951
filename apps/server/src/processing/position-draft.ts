// A position on its way through the pipeline: the decoded fix plus what the server adds.
// Kept as plain numbers (epoch ms) and a live attribute object until the writer stores it.
import type { DecodedFix } from '../ingest/decoded.ts';
import type { PositionRow } from '../positions/position-json.ts';

/** Every stored column but the id (which the database hands out). */
export type PositionColumns = Omit<PositionRow, 'id'>;

export interface PositionDraft extends DecodedFix {
  /** Set by the writer once stored. */
  id: number | null;
  deviceId: number;
  serverTime: number;
  address: string | null;
  geofenceIds: number[] | null;
}

export function draftFromFix(fix: DecodedFix, deviceId: number, serverTime: number): PositionDraft {
  // Spelled out rather than spread: this runs for every message.
  return {
    id: null,
    deviceId,
    protocol: fix.protocol,
    serverTime,
    deviceTime: fix.deviceTime,
    fixTime: fix.fixTime,
    outdated: fix.outdated,
    valid: fix.valid,
    latitude: fix.latitude,
    longitude: fix.longitude,
    altitude: fix.altitude,
    speed: fix.speed,
    course: fix.course,
    accuracy: fix.accuracy,
    address: null,
    network: fix.network,
    geofenceIds: null,
    attributes: fix.attributes,
    // Only device-clock dates say so: the device-clock step corrects them, then marks them utc.
    ...(fix.clock === 'device' ? { clock: fix.clock } : {}),
  };
}

/** The stored columns of a draft (id comes from the database). */
export function draftToColumns(p: PositionDraft): PositionColumns {
  return {
    deviceId: p.deviceId,
    protocol: p.protocol,
    serverTime: p.serverTime,
    deviceTime: p.deviceTime,
    fixTime: p.fixTime,
    valid: p.valid ? 1 : 0,
    latitude: p.latitude,
    longitude: p.longitude,
    altitude: p.altitude,
    speed: p.speed,
    course: p.course,
    address: p.address,
    accuracy: p.accuracy,
    network: p.network ? JSON.stringify(p.network) : null,
    geofenceIds: p.geofenceIds ? JSON.stringify(p.geofenceIds) : null,
    attributes: JSON.stringify(p.attributes),
  };
}

/**
 * Writes the stored columns of a draft into `out` from index `k`, in POSITION_COLUMNS order
 * (writer-protocol.ts), and returns the next index: the writer's flush without an object per row.
 */
export function putDraftValues(out: unknown[], k: number, p: PositionDraft): number {
  out[k] = p.deviceId;
  out[k + 1] = p.protocol;
  out[k + 2] = p.serverTime;
  out[k + 3] = p.deviceTime;
  out[k + 4] = p.fixTime;
  out[k + 5] = p.valid ? 1 : 0;
  out[k + 6] = p.latitude;
  out[k + 7] = p.longitude;
  out[k + 8] = p.altitude;
  out[k + 9] = p.speed;
  out[k + 10] = p.course;
  out[k + 11] = p.address;
  out[k + 12] = p.accuracy;
  out[k + 13] = p.network ? JSON.stringify(p.network) : null;
  out[k + 14] = p.geofenceIds ? JSON.stringify(p.geofenceIds) : null;
  out[k + 15] = JSON.stringify(p.attributes);
  return k + 16;
}

/** A stored row back into a draft (the device's last position, loaded once per device). */
export function draftFromRow(row: PositionRow): PositionDraft {
  const attributes = safeParse(row.attributes);
  const network = safeParse(row.network);
  const geofenceIds = safeParse(row.geofenceIds);
  return {
    id: row.id,
    deviceId: row.deviceId,
    protocol: row.protocol,
    serverTime: row.serverTime,
    deviceTime: row.deviceTime,
    fixTime: row.fixTime,
    outdated: false,
    valid: row.valid === 1,
    latitude: row.latitude,
    longitude: row.longitude,
    altitude: row.altitude,
    speed: row.speed,
    course: row.course,
    address: row.address,
    accuracy: row.accuracy,
    network: isRecord(network) ? network : null,
    geofenceIds: Array.isArray(geofenceIds) ? (geofenceIds as number[]) : null,
    attributes: isRecord(attributes) ? attributes : {},
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function safeParse(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
