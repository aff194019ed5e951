// Shapes of the Traccar API objects as they travel over HTTP and the socket.
// Units are Traccar's: speed in knots, distances in metres, durations in milliseconds,
// dates as ISO-8601 strings with an offset.

export type Attributes = Record<string, unknown>;

export type DeviceStatus = 'online' | 'offline' | 'unknown';

export interface Device {
  id: number;
  name: string;
  uniqueId: string;
  status: DeviceStatus;
  disabled: boolean;
  lastUpdate: string | null;
  positionId: number | null;
  /** 0 when the device is in no group (Traccar's answer; null is never sent). */
  groupId: number;
  /** 0 when no calendar applies. */
  calendarId: number;
  phone: string | null;
  model: string | null;
  contact: string | null;
  category: string | null;
  expirationTime: string | null;
  attributes: Attributes;
}

export interface Network {
  radioType?: string;
  considerIp?: boolean;
  cellTowers?: Array<{
    cellId: number;
    locationAreaCode: number;
    mobileCountryCode: number;
    mobileNetworkCode: number;
    signalStrength?: number;
  }>;
  wifiAccessPoints?: Array<{ macAddress: string; signalStrength?: number }>;
}

export interface Position {
  id: number;
  deviceId: number;
  protocol: string;
  serverTime: string;
  deviceTime: string;
  fixTime: string;
  outdated?: boolean;
  valid: boolean;
  latitude: number;
  longitude: number;
  altitude: number;
  speed: number;
  course: number;
  /** null when unknown (no geocoder), like network and geofenceIds: Traccar always sends the three keys. */
  address: string | null;
  accuracy: number;
  network: Network | null;
  /** The geofences containing the position; null when none. */
  geofenceIds: number[] | null;
  attributes: Attributes;
}

export interface User {
  id: number;
  name: string;
  /** A login name besides the e-mail; null when none. */
  login: string | null;
  email: string;
  phone: string | null;
  readonly: boolean;
  administrator: boolean;
  map: string | null;
  latitude: number;
  longitude: number;
  zoom: number;
  twelveHourFormat: boolean;
  coordinateFormat: string | null;
  disabled: boolean;
  expirationTime: string | null;
  deviceLimit: number;
  userLimit: number;
  deviceReadonly: boolean;
  limitCommands: boolean;
  disableReports: boolean;
  fixedEmail: boolean;
  poiLayer: string | null;
  temporary: boolean;
  totpKey?: string | null;
  password?: string | null;
  attributes: Attributes;
}

export interface Server {
  id: number;
  registration: boolean;
  readonly: boolean;
  deviceReadonly: boolean;
  limitCommands: boolean;
  disableReports: boolean;
  fixedEmail: boolean;
  // The texts are null when unset: Traccar always sends every key.
  map: string | null;
  bingKey: string | null;
  mapUrl: string | null;
  overlayUrl: string | null;
  poiLayer: string | null;
  announcement: string | null;
  latitude: number;
  longitude: number;
  zoom: number;
  twelveHourFormat: boolean;
  forceSettings: boolean;
  coordinateFormat: string | null;
  version: string;
  emailEnabled: boolean;
  textEnabled: boolean;
  geocoderEnabled: boolean;
  openIdEnabled: boolean;
  openIdForce: boolean;
  /** For administrators: [usable, total] bytes of the disk of the server's data; else null. */
  storageSpace: number[] | null;
  /** For anonymous callers: true while no user exists (clients then offer to register); else false. */
  newServer: boolean;
  attributes: Attributes;
}

export interface Group {
  id: number;
  name: string;
  groupId: number;
  attributes: Attributes;
}

export interface Event {
  id: number;
  type: string;
  eventTime: string;
  deviceId: number;
  positionId: number;
  geofenceId: number;
  maintenanceId: number;
  attributes: Attributes;
}

/**
 * One frame as a device sent it, for the device log (`{logs}` on the socket, only to sockets
 * that sent `{"logs": true}`; traccar-reference A.2). The server's RawFrame (realtime/live.ts).
 */
export interface DeviceLogFrame {
  protocol: string;
  /** `address:port` of the device. */
  host: string;
  /** Null while the connection has not identified a known device. */
  uniqueId: string | null;
  deviceId: number | null;
  /** Hex, or the text with `\r` / `\n` escaped. */
  data: string;
  /** Server time the frame arrived (epoch ms; Rastro, not in Traccar's messages). */
  time?: number;
}

/** One message on `/api/socket`; the server never mixes keys in one message. */
export interface SocketMessage {
  devices?: Device[];
  positions?: Position[];
  events?: Event[];
  logs?: DeviceLogFrame[];
}

/** A calendar: `data` is its iCalendar text encoded in base64 (@rastro/domain/icalendar). */
export interface Calendar {
  id: number;
  name: string;
  data: string;
  attributes: Attributes;
}

/** A driver, recognised by the position attribute `driverUniqueId`. */
export interface Driver {
  id: number;
  name: string;
  uniqueId: string;
  attributes: Attributes;
}

/** A service interval over a position value (`type`), in that value's unit. */
export interface Maintenance {
  id: number;
  name: string;
  type: string;
  start: number;
  period: number;
  attributes: Attributes;
}

/** A computed attribute (Traccar's Attribute): no `attributes` map. */
export interface ComputedAttribute {
  id: number;
  description: string;
  attribute: string;
  expression: string;
  type: 'string' | 'number' | 'boolean';
  priority: number;
}

/** A notification; `calendarId` and `commandId` are 0 when there is none, as Traccar sends them. */
export interface Notification {
  id: number;
  type: string;
  description: string | null;
  always: boolean;
  notificators: string | null;
  calendarId: number;
  commandId: number;
  attributes: Attributes;
}
