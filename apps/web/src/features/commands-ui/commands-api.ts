// Calls behind the device actions (tarkan-reference §5.6, §5.7; traccar-reference A.7):
// saved commands for a device, command types, sending, lock/unlock resolution and the anchor
// geofence. Pure helpers are exported for tests.
import type { Position } from '@rastro/domain/entities';
import type { CommandLogEntry } from '@rastro/domain/command-log';
import { api } from '../../api/http.ts';
import { commandLogFrom } from './command-log-api.ts';

export interface SavedCommand {
  id: number;
  description: string;
  deviceId?: number;
  type: string;
  textChannel?: boolean;
  attributes: Record<string, unknown>;
}

export interface CommandType {
  type: string;
}

export interface Geofence {
  id: number;
  name: string;
  description?: string | null;
  area: string;
  calendarId?: number | null;
  attributes: Record<string, unknown>;
}

export type LockAction = 'lock' | 'unlock';

export const NATIVE_TYPE: Record<LockAction, 'engineStop' | 'engineResume'> = { lock: 'engineStop', unlock: 'engineResume' };

/** Radius of the anchor circle, metres (spec §9). */
export const ANCHOR_RADIUS = 150;

export const savedCommandsOf = (deviceId: number) => api.get<SavedCommand[]>('/commands/send', { deviceId });
export const commandTypesOf = (deviceId: number) => api.get<CommandType[]>('/commands/types', { deviceId });

/** The body to send for lock/unlock: a saved command whose tarkan.changeNative matches wins. */
export function lockCommand(action: LockAction, deviceId: number, saved: readonly SavedCommand[]): Record<string, unknown> {
  const native = NATIVE_TYPE[action];
  const override = saved.find((c) => c.attributes?.['tarkan.changeNative'] === native);
  if (override) return { ...override, deviceId };
  return { deviceId, type: native, attributes: {} };
}

export interface SendResult {
  /** 202: stored until the device reports; 200: written to the device. */
  queued: boolean;
  at: number;
  command: Record<string, unknown>;
  /** The command's lifecycle entry (a Rastro server); null from a Traccar server. */
  commandLog: CommandLogEntry | null;
}

export async function sendCommand(body: Record<string, unknown>): Promise<SendResult> {
  const res = await api.raw<unknown>('/commands/send', { method: 'POST', json: body });
  return { queued: res.status === 202, at: Date.now(), command: body, commandLog: commandLogFrom(res.data) };
}

export const isAnchorOf = (deviceId: number) => (g: Geofence) =>
  (g.attributes?.isAnchor === true || g.attributes?.isAnchor === 'true') && Number(g.attributes?.deviceId) === deviceId;

export async function anchorOf(deviceId: number): Promise<Geofence | null> {
  const list = await api.get<Geofence[]>('/geofences', { deviceId });
  return list.find(isAnchorOf(deviceId)) ?? null;
}

/** Traccar's circle WKT is latitude first: CIRCLE (lat lon, radius). */
export function anchorGeofence(deviceId: number, deviceName: string, position: Pick<Position, 'latitude' | 'longitude'>, groupId?: number) {
  return {
    name: `Anchor ${deviceName}`,
    description: '',
    area: `CIRCLE (${position.latitude} ${position.longitude}, ${ANCHOR_RADIUS})`,
    calendarId: 0,
    // A group anchor (tarkan-reference §5.7) is one anchor per device, each naming the group.
    attributes: groupId ? { isAnchor: true, deviceId, groupId } : { isAnchor: true, deviceId },
  };
}

export async function createAnchor(deviceId: number, deviceName: string, position: Pick<Position, 'latitude' | 'longitude'>, groupId?: number): Promise<Geofence> {
  const geofence = await api.post<Geofence>('/geofences', anchorGeofence(deviceId, deviceName, position, groupId));
  await api.post('/permissions', { deviceId, geofenceId: geofence.id });
  return geofence;
}

export const removeAnchor = (geofenceId: number) => api.delete(`/geofences/${geofenceId}`);
