// Device commands: Traccar's command types, the product's native actions (spec §9), which
// types each protocol accepts, and the text a command becomes when a device that polls over
// HTTP (OsmAnd) picks it up.

/** Every command type Traccar knows (`GET /api/commands/types` without a device). */
export const COMMAND_TYPES = [
  'custom', 'deviceIdentification', 'positionSingle', 'positionPeriodic', 'positionStop', 'engineStop', 'engineResume',
  'alarmArm', 'alarmDisarm', 'alarmDismiss', 'setTimezone', 'requestPhoto', 'powerOff', 'rebootDevice', 'factoryReset',
  'sendSms', 'sendUssd', 'sosNumber', 'silenceTime', 'setPhonebook', 'message', 'voiceMessage', 'outputControl',
  'voiceMonitoring', 'setAgps', 'setIndicator', 'configuration', 'getVersion', 'firmwareUpdate', 'setConnection',
  'setOdometer', 'getModemStatus', 'getDeviceStatus', 'setSpeedLimit', 'modePowerSaving', 'modeDeepSleep', 'videoStart',
  'videoStop', 'alarmGeofence', 'alarmBattery', 'alarmSos', 'alarmRemove', 'alarmClock', 'alarmSpeed', 'alarmFall',
  'alarmVibration',
] as const;

export type CommandType = (typeof COMMAND_TYPES)[number];

/**
 * The product's native actions (spec §9), offered in the saved-command editor as "native
 * action to change" (attribute `tarkan.changeNative`). `anchorEnable` / `anchorDisable` are
 * client actions (a geofence is created or deleted), not device command types.
 */
export const NATIVE_COMMAND_ACTIONS = [
  'custom', 'engineStop', 'engineResume', 'anchorEnable', 'anchorDisable', 'deviceIdentification', 'positionSingle',
  'alarmArm', 'alarmDisarm', 'outputControl', 'rebootDevice',
] as const;

export type NativeCommandAction = (typeof NATIVE_COMMAND_ACTIONS)[number];

/** Attribute of a saved command naming the native action it replaces (lock = engineStop, unlock = engineResume). */
export const CHANGE_NATIVE_ATTRIBUTE = 'tarkan.changeNative';

/** Parameter keys commands carry in `attributes`. */
export const COMMAND_PARAMETER_KEYS = [
  'uniqueId', 'frequency', 'language', 'timezone', 'devicePassword', 'radius', 'message', 'enable', 'data', 'index',
  'phone', 'server', 'port', 'noQueue',
] as const;

/** The device command types among the native actions (what OsmAnd devices are offered). */
/**
 * Types each protocol accepts over its data channel, as Traccar lists them (its own clients
 * build their command menus from this list). OsmAnd cannot take a command of its own: Traccar
 * offers `custom` alone, whose text the phone receives as the answer to its next report. A lock
 * or unlock still reaches such a device (the device detail sends engineStop / engineResume,
 * which are queued and handed over the same way), it is only not offered as a type. The binary
 * protocols list what their command encoders handle.
 */
export const PROTOCOL_COMMAND_TYPES: Readonly<Record<string, readonly CommandType[]>> = {
  osmand: ['custom'],
  gt06: ['custom', 'engineStop', 'engineResume', 'positionSingle', 'rebootDevice', 'getVersion', 'getDeviceStatus'],
  teltonika: ['custom', 'engineStop', 'engineResume', 'positionSingle', 'rebootDevice', 'getVersion', 'getModemStatus'],
  h02: ['custom', 'engineStop', 'engineResume'],
  suntech: ['custom', 'engineStop', 'engineResume', 'positionSingle', 'rebootDevice', 'outputControl'],
};

/**
 * Types a device may be sent: by the protocol of its latest position, `custom` alone when it
 * never reported (or speaks a protocol without an encoder).
 */
export function commandTypesForProtocol(protocol: string | null | undefined): CommandType[] {
  if (!protocol) return ['custom'];
  return [...(PROTOCOL_COMMAND_TYPES[protocol.toLowerCase()] ?? ['custom'])];
}

export const isCommandType = (value: string): value is CommandType => (COMMAND_TYPES as readonly string[]).includes(value);

/** A saved command (`/api/commands`) or a command to send (`deviceId` set). */
export interface Command {
  id: number;
  deviceId?: number;
  description: string | null;
  type: string;
  textChannel: boolean;
  attributes: Record<string, unknown>;
}

/** A command waiting for its device (`tc_commands_queue`). */
export interface QueuedCommand {
  id: number;
  deviceId: number;
  type: string;
  textChannel: boolean;
  attributes: Record<string, unknown>;
}

function parameterText(value: unknown): string {
  if (typeof value === 'string') return /\s/.test(value) || value === '' ? JSON.stringify(value) : value;
  return JSON.stringify(value) ?? '';
}

/**
 * The text a polling (HTTP) device receives for a command:
 * - `custom`: `attributes.data` as it is, with `{uniqueId}` replaced by the device's uniqueId;
 * - any other type: the type name followed by its parameters as `key=value`, keys sorted,
 *   `noQueue` left out, values with spaces quoted — e.g. `engineStop`, `outputControl data=1 index=2`.
 */
export function commandText(command: { type: string; attributes: Record<string, unknown> }, uniqueId: string): string {
  if (command.type === 'custom') {
    const data = command.attributes.data;
    const text = typeof data === 'string' ? data : data === undefined || data === null ? '' : String(data);
    return text.replaceAll('{uniqueId}', uniqueId);
  }
  const parameters = Object.keys(command.attributes)
    .filter((k) => k !== 'noQueue')
    .sort()
    .map((k) => `${k}=${parameterText(command.attributes[k])}`);
  return [command.type, ...parameters].join(' ');
}
