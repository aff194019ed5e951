// May the user add a device? (spec §5, tarkan-reference §5.8). The add action shows with bit 13
// and a user deviceLimit of -1 or above 0; it is enabled only when every limit allows one more.
import { canAddDevice, showsAddDevice } from '@rastro/domain/device-limits';
import { hasPermission, PERMISSION_BITS } from '@rastro/domain/permissions';
import type { User } from '@rastro/domain/entities';
import type { ServerInfo } from '../../app/session-store.ts';

export type AddDeviceBlock = 'serverLimit' | 'serverAttributeLimit' | 'userLimit' | 'readonly';

export interface AddDeviceState {
  visible: boolean;
  allowed: boolean;
  /** i18n key of the reason when not allowed. */
  reason: string | null;
}

export function addDeviceState(user: User | null, info: ServerInfo | null, deviceCount: number): AddDeviceState {
  if (!user || !info) return { visible: false, allowed: false, reason: null };
  const perm = hasPermission(user, { plus: info.plus, attributes: info.server.attributes }, PERMISSION_BITS.devicesCreate);
  const limit = typeof user.deviceLimit === 'number' ? user.deviceLimit : -1;
  const visible = perm && (user.administrator || showsAddDevice(limit));
  const block = (reason: AddDeviceBlock): AddDeviceState => ({ visible, allowed: false, reason: `deviceEditor.limits.${reason}` });
  if (!user.administrator && (user.readonly || user.deviceReadonly || info.server.readonly || info.server.deviceReadonly)) return block('readonly');
  if (info.allowedDevices !== null && info.allowedDevices <= 0) return block('serverLimit');
  const serverLimit = Number(info.server.attributes?.['tarkan.deviceLimit'] ?? 0);
  if (serverLimit > 0 && deviceCount >= serverLimit) return block('serverAttributeLimit');
  if (!user.administrator && limit > -1 && deviceCount >= limit) return block('userLimit');
  // The shared rule (administrators are not held to their own deviceLimit, as on the server).
  if (!canAddDevice({ allowedLimit: info.allowedDevices, serverAttributes: info.server.attributes, userDeviceLimit: user.administrator ? -1 : limit, deviceCount })) {
    return block('serverLimit');
  }
  return { visible, allowed: true, reason: null };
}
