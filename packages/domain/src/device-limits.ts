// Device-add limits (spec §5, reference §5.8). Adding a device is allowed only when all hold:
//   - the server's allowed limit (devicelimit header) is not zero or negative when set;
//   - the server attribute tarkan.deviceLimit, when above 0, is above the user's device count;
//   - the user's deviceLimit, when -1 (unlimited) or above, permits it (count below it).
// The vendor compared against an object's length, so only the header rule worked; the count
// here is a real number.

export interface DeviceLimitInput {
  /** Devices still allowed server-wide (devicelimit header); null/undefined when not sent. */
  allowedLimit?: number | null;
  /** Server attributes (tarkan.deviceLimit is read). */
  serverAttributes?: Record<string, unknown> | null;
  /** The user's deviceLimit: -1 unlimited, 0 none, N at most N. */
  userDeviceLimit: number;
  /** How many devices the user has now. */
  deviceCount: number;
}

const num = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

export function canAddDevice(input: DeviceLimitInput): boolean {
  const allowed = input.allowedLimit;
  if (allowed !== null && allowed !== undefined && allowed <= 0) return false;
  const serverLimit = num(input.serverAttributes?.['tarkan.deviceLimit']);
  if (serverLimit !== null && serverLimit > 0 && input.deviceCount >= serverLimit) return false;
  const userLimit = input.userDeviceLimit;
  if (userLimit > -1 && input.deviceCount >= userLimit) return false;
  return true;
}

/** The "add device" button shows only for a user deviceLimit of -1 or above 0 (and bit 13, checked elsewhere). */
export const showsAddDevice = (userDeviceLimit: number): boolean => userDeviceLimit === -1 || userDeviceLimit > 0;
