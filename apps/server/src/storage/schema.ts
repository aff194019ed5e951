// Table shapes as Kysely sees them. Booleans are stored as 0/1 integers and instants as
// epoch milliseconds on both SQLite and PostgreSQL, so one set of queries serves both;
// repositories convert rows to the API's JSON shapes.
import type { Generated } from 'kysely';

/** 0 or 1. */
export type Bool = number;
/** Epoch milliseconds. */
export type Millis = number;
/** JSON text. */
export type Json = string;

export interface ServerTable {
  id: Generated<number>;
  registration: Bool;
  readonly: Bool;
  deviceReadonly: Bool;
  limitCommands: Bool;
  disableReports: Bool;
  fixedEmail: Bool;
  map: string | null;
  bingKey: string | null;
  mapUrl: string | null;
  overlayUrl: string | null;
  poiLayer: string | null;
  announcement: string | null;
  latitude: number;
  longitude: number;
  zoom: number;
  twelveHourFormat: Bool;
  forceSettings: Bool;
  coordinateFormat: string | null;
  attributes: Json;
}

export interface UserTable {
  id: Generated<number>;
  name: string;
  login: string | null;
  email: string;
  phone: string | null;
  readonly: Bool;
  administrator: Bool;
  map: string | null;
  latitude: number;
  longitude: number;
  zoom: number;
  twelveHourFormat: Bool;
  coordinateFormat: string | null;
  disabled: Bool;
  expirationTime: Millis | null;
  deviceLimit: number;
  userLimit: number;
  deviceReadonly: Bool;
  limitCommands: Bool;
  disableReports: Bool;
  fixedEmail: Bool;
  poiLayer: string | null;
  temporary: Bool;
  totpKey: string | null;
  hashedPassword: string | null;
  salt: string | null;
  attributes: Json;
}

export interface DeviceTable {
  id: Generated<number>;
  name: string;
  uniqueId: string;
  status: string | null;
  disabled: Bool;
  lastUpdate: Millis | null;
  positionId: number | null;
  groupId: number | null;
  calendarId: number | null;
  phone: string | null;
  model: string | null;
  contact: string | null;
  category: string | null;
  expirationTime: Millis | null;
  attributes: Json;
  /** Persisted motion / overspeed state of the processing pipeline (not part of the API JSON). */
  motionState: Bool;
  motionStreak: Bool;
  motionPositionId: number | null;
  motionTime: Millis | null;
  motionDistance: number;
  motionLatitude: number;
  motionLongitude: number;
  overspeedState: Bool;
  overspeedTime: Millis | null;
  overspeedGeofenceId: number;
}

export interface GroupTable {
  id: Generated<number>;
  name: string;
  groupId: number | null;
  attributes: Json;
}

export interface PositionTable {
  id: Generated<number>;
  deviceId: number;
  protocol: string;
  serverTime: Millis;
  deviceTime: Millis;
  fixTime: Millis;
  valid: Bool;
  latitude: number;
  longitude: number;
  altitude: number;
  speed: number;
  course: number;
  address: string | null;
  accuracy: number;
  network: Json | null;
  geofenceIds: Json | null;
  attributes: Json;
}

export interface EventTable {
  id: Generated<number>;
  type: string;
  eventTime: Millis;
  deviceId: number;
  positionId: number;
  geofenceId: number;
  maintenanceId: number;
  attributes: Json;
}

export interface SessionTable {
  id: string;
  userId: number;
  origin: string | null;
  /** Session ends at this instant (token logins carry the token's expiry); null = no fixed end. */
  expiration: Millis | null;
  createdAt: Millis;
  lastSeen: Millis;
  /**
   * Sessions opened with `?token=` (or from such a session by "login as"): the token's id and
   * the ids of the tokens it was made from, comma-separated; revoking any of them ends the
   * session (migration 006). Null for password logins.
   */
  tokenIds: string | null;
}

export interface KeystoreTable {
  id: Generated<number>;
  publicKey: string;
  privateKey: string;
}

export interface RevokedTokenTable {
  id: string;
  expiration: Millis;
}

/** Per-user credential state the login checks read (migration 006); no row = nothing set yet. */
export interface UserAuthStateTable {
  userId: number;
  /** Login tokens issued before this instant are dead (set when the password changes or is reset). */
  tokensNotBefore: Millis | null;
  /** Id of the one reset token that may still be used; issuing or using one replaces or clears it. */
  resetTokenId: string | null;
}

export interface GeofenceTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  /** Latitude-first WKT-like text (CIRCLE / POLYGON / LINESTRING). */
  area: string;
  calendarId: number | null;
  attributes: Json;
}

/** A saved command (`/api/commands`). */
export interface CommandTable {
  id: Generated<number>;
  description: string | null;
  type: string;
  textChannel: Bool;
  attributes: Json;
}

/** A command waiting for its device's next message (Traccar's `tc_commands_queue`). */
export interface CommandQueueTable {
  id: Generated<number>;
  deviceId: number;
  type: string;
  textChannel: Bool;
  attributes: Json;
}

/** One command's lifecycle (migration 008, commands/command-log-repo.ts); see @rastro/domain/command-log. */
export interface CommandLogTable {
  id: Generated<number>;
  deviceId: number;
  userId: number | null;
  type: string;
  description: string | null;
  attributes: Json;
  status: string;
  reason: string | null;
  /** 1: a position with `blocked` true confirms it (engine stop); 0: `blocked` false (resume); null: nothing does. */
  expectBlocked: Bool | null;
  queueId: number | null;
  createdTime: Millis;
  sentTime: Millis | null;
  acknowledgedTime: Millis | null;
  confirmedTime: Millis | null;
  failedTime: Millis | null;
  result: string | null;
}

/** A calendar (migration 009): `data` is the iCalendar text, decoded from the API's base64. */
export interface CalendarTable {
  id: Generated<number>;
  name: string;
  data: string;
  attributes: Json;
}

/** A driver (migration 009); `uniqueId` is unique among drivers. */
export interface DriverTable {
  id: Generated<number>;
  name: string;
  uniqueId: string;
  attributes: Json;
}

/** A service interval (migration 009, Traccar's `tc_maintenances`). */
export interface MaintenanceTable {
  id: Generated<number>;
  name: string;
  type: string;
  start: number;
  period: number;
  attributes: Json;
}

/** A computed attribute (migration 009, Traccar's `tc_attributes`); it has no attributes map. */
export interface ComputedAttributeTable {
  id: Generated<number>;
  description: string;
  attribute: string;
  expression: string;
  type: string;
  priority: number;
}

/** A notification (migration 009); calendarId / commandId are cleared when their object goes. */
export interface NotificationTable {
  id: Generated<number>;
  type: string;
  description: string | null;
  always: Bool;
  notificators: string | null;
  calendarId: number | null;
  commandId: number | null;
  attributes: Json;
}

/** A permission link between two objects (Traccar's `tc_<owner>_<property>` tables). */
export interface LinkTable {
  ownerId: number;
  propertyId: number;
}

/** A trip or stop closed by the live motion state machine (migration 004, motion/). */
export interface MotionSegmentTable {
  id: Generated<number>;
  deviceId: number;
  /** 'late' marks a position the live machine skipped (out of order): replays skip it too. */
  kind: 'trip' | 'stop' | 'late';
  startTime: number;
  endTime: number;
  closedTime: number;
  startPositionId: number | null;
  endPositionId: number | null;
  openedById: number | null;
  closedById: number | null;
  startLat: number;
  startLon: number;
  endLat: number;
  endLon: number;
  startAddress: string | null;
  endAddress: string | null;
  distance: number;
  maxSpeed: number;
  startOdometer: number;
  endOdometer: number;
  spentFuel: number;
  startHours: number | null;
  endHours: number | null;
  driverUniqueId: string | null;
}

/** The live motion state machine's persisted state per device (migration 004). */
export interface MotionStateTable {
  deviceId: number;
  moving: number;
  startPositionId: number | null;
  decidedById: number | null;
}

/**
 * Who set the current restriction (disabled or an expiration) of a device or user (migration
 * 007): one row per restricted object, never part of the API JSON.
 */
export interface RestrictionTable {
  objectId: number;
  restrictedBy: number;
}

/** One UTC day of server statistics (migration 010, statistics/; Traccar's `tc_statistics`). */
export interface StatisticsTable {
  id: Generated<number>;
  /** The midnight (UTC) that ends the day counted. */
  captureTime: Millis;
  activeUsers: number;
  activeDevices: number;
  requests: number;
  messagesReceived: number;
  messagesStored: number;
  mailSent: number;
  smsSent: number;
  geocoderRequests: number;
  geolocationRequests: number;
  /** {protocol: active devices}; null without any. */
  protocols: Json | null;
  attributes: Json;
}

/** A user or device active on a statistics day (migration 010): what the day's distinct counts are made of. */
export interface StatisticsSeenTable {
  captureTime: Millis;
  kind: 'user' | 'device';
  objectId: number;
  protocol: string | null;
}

/** One audit row (migration 012, audit/): codes and JSON shape in @rastro/domain/audit. */
export interface AuditLogTable {
  id: Generated<number>;
  time: Millis;
  code: number;
  userId: number | null;
  /** The actor's e-mail as it was then (the attempted one for a failed login). */
  userName: string | null;
  userIp: string | null;
  userAgent: string | null;
  objectType: string | null;
  objectId: number | null;
  /** The other side of a link row, or an anchor's geofence. */
  relatedType: string | null;
  relatedId: number | null;
  data: Json | null;
  old: Json | null;
  status: number | null;
}

/**
 * Every user below a manager at any depth (migration 011): the closure of `userUser`, kept by
 * triggers on it. `paths` counts the distinct link paths (a user may have several managers).
 */
export interface UserTreeTable {
  ancestorId: number;
  descendantId: number;
  paths: number;
}

export interface Database {
  server: ServerTable;
  users: UserTable;
  devices: DeviceTable;
  groups: GroupTable;
  positions: PositionTable;
  events: EventTable;
  sessions: SessionTable;
  keystore: KeystoreTable;
  revokedTokens: RevokedTokenTable;
  userAuthState: UserAuthStateTable;
  userDevice: LinkTable;
  userGroup: LinkTable;
  userUser: LinkTable;
  userTree: UserTreeTable;
  deviceDevice: LinkTable;
  geofences: GeofenceTable;
  commands: CommandTable;
  commandsQueue: CommandQueueTable;
  userGeofence: LinkTable;
  deviceGeofence: LinkTable;
  groupGeofence: LinkTable;
  userCommand: LinkTable;
  deviceCommand: LinkTable;
  groupCommand: LinkTable;
  motionSegments: MotionSegmentTable;
  motionStates: MotionStateTable;
  deviceRestrictions: RestrictionTable;
  userRestrictions: RestrictionTable;
  commandLog: CommandLogTable;
  calendars: CalendarTable;
  drivers: DriverTable;
  maintenances: MaintenanceTable;
  computedAttributes: ComputedAttributeTable;
  notifications: NotificationTable;
  userCalendar: LinkTable;
  userDriver: LinkTable;
  deviceDriver: LinkTable;
  groupDriver: LinkTable;
  userMaintenance: LinkTable;
  deviceMaintenance: LinkTable;
  groupMaintenance: LinkTable;
  userAttribute: LinkTable;
  deviceAttribute: LinkTable;
  groupAttribute: LinkTable;
  userNotification: LinkTable;
  deviceNotification: LinkTable;
  groupNotification: LinkTable;
  statistics: StatisticsTable;
  statisticsSeen: StatisticsSeenTable;
  auditLog: AuditLogTable;
}

export type LinkTableName =
  | 'userDevice' | 'userGroup' | 'userUser' | 'deviceDevice'
  | 'userGeofence' | 'deviceGeofence' | 'groupGeofence' | 'userCommand' | 'deviceCommand' | 'groupCommand'
  | 'userCalendar' | 'userDriver' | 'deviceDriver' | 'groupDriver' | 'userMaintenance' | 'deviceMaintenance' | 'groupMaintenance'
  | 'userAttribute' | 'deviceAttribute' | 'groupAttribute' | 'userNotification' | 'deviceNotification' | 'groupNotification';

