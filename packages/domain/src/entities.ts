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
  groupId: number | null;
  calendarId: number | null;
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
  address?: string;
  accuracy: number;
  network?: Network;
  geofenceIds?: number[];
  attributes: Attributes;
}

export interface User {
  id: number;
  name: string;
  login?: string;
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
  map?: string;
  bingKey?: string;
  mapUrl?: string;
  overlayUrl?: string;
  poiLayer?: string;
  announcement?: string;
  latitude: number;
  longitude: number;
  zoom: number;
  twelveHourFormat: boolean;
  forceSettings: boolean;
  coordinateFormat?: string;
  version: string;
  emailEnabled: boolean;
  textEnabled: boolean;
  geocoderEnabled: boolean;
  openIdEnabled: boolean;
  openIdForce: boolean;
  newServer?: boolean;
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
