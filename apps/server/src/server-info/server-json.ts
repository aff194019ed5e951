// Server row -> Traccar's Server JSON, and the PUT body -> columns. Computed fields (version,
// emailEnabled, storageSpace, newServer, ...) are added on the way out and ignored on the way
// in. Every key is sent, unset ones as null: Traccar's clients read the object as Traccar
// writes it (the OpenAPI file types the texts as plain strings, but its server sends null).
import fs from 'node:fs';
import path from 'node:path';
import type { Updateable } from 'kysely';
import type { Server } from '@rastro/domain/entities';
import { SERVER_WRITABLE_FIELDS, serverUpdateSchema } from '@rastro/domain/schemas/server';
import { nothingToUpdateText } from '@rastro/domain/schemas/messages';
import type { ServerTable } from '../storage/schema.ts';
import { badRequest } from '../http/errors.ts';
import { parseWith } from '../http/validate.ts';
import { parseAttributes, toBool } from '../http/json.ts';
import type { ServerRow } from './server-repo.ts';

let cachedVersion: string | null = null;

/** Rastro's version, from the repository's root package.json. */
export function rastroVersion(): string {
  if (cachedVersion) return cachedVersion;
  try {
    const file = path.resolve(import.meta.dirname, '../../../../package.json');
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: unknown };
    cachedVersion = typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    cachedVersion = '0.0.0';
  }
  return cachedVersion;
}

export interface ServerComputed {
  emailEnabled: boolean;
  /** Administrators only (Traccar's rule): [usable, total] bytes of the data's disk. */
  storageSpace: number[] | null;
  /** Anonymous callers only: no user exists yet. Everyone else is told false. */
  newServer: boolean;
}

const OPTIONAL_TEXT = ['map', 'bingKey', 'mapUrl', 'overlayUrl', 'poiLayer', 'announcement', 'coordinateFormat'] as const;

/** Every key Traccar sends, in its order; unset texts are null, as Traccar's serialiser writes them. */
export function serverToJson(row: ServerRow, computed: ServerComputed): Server {
  return {
    id: row.id,
    attributes: parseAttributes(row.attributes),
    registration: toBool(row.registration),
    readonly: toBool(row.readonly),
    deviceReadonly: toBool(row.deviceReadonly),
    map: row.map,
    bingKey: row.bingKey,
    mapUrl: row.mapUrl,
    overlayUrl: row.overlayUrl,
    latitude: row.latitude,
    longitude: row.longitude,
    zoom: row.zoom,
    twelveHourFormat: toBool(row.twelveHourFormat),
    forceSettings: toBool(row.forceSettings),
    coordinateFormat: row.coordinateFormat,
    limitCommands: toBool(row.limitCommands),
    disableReports: toBool(row.disableReports),
    fixedEmail: toBool(row.fixedEmail),
    poiLayer: row.poiLayer,
    announcement: row.announcement,
    emailEnabled: computed.emailEnabled,
    geocoderEnabled: false,
    textEnabled: false,
    storageSpace: computed.storageSpace,
    newServer: computed.newServer,
    openIdEnabled: false,
    openIdForce: false,
    version: rastroVersion(),
  };
}

const BOOL_FIELDS = ['registration', 'readonly', 'deviceReadonly', 'limitCommands', 'disableReports', 'fixedEmail',
  'twelveHourFormat', 'forceSettings'] as const;
const NUMBER_FIELDS = ['latitude', 'longitude', 'zoom'] as const;

/**
 * Reads a PUT body with the domain's server schema; fields left out (and null numbers) keep
 * their stored value. A body that changes no column is refused (400): an empty UPDATE fails.
 */
export function serverUpdateFromJson(body: unknown): Updateable<ServerTable> {
  const input = parseWith(serverUpdateSchema, body);
  const out: Updateable<ServerTable> = {};
  for (const key of BOOL_FIELDS) {
    const v = input[key];
    if (v !== undefined) out[key] = v ? 1 : 0;
  }
  for (const key of OPTIONAL_TEXT) {
    const v = input[key];
    if (v !== undefined) out[key] = v;
  }
  for (const key of NUMBER_FIELDS) {
    const v = input[key];
    if (v !== undefined && v !== null) out[key] = v;
  }
  if (input.attributes !== undefined) out.attributes = JSON.stringify(input.attributes);
  if (Object.keys(out).length === 0) throw badRequest(nothingToUpdateText(SERVER_WRITABLE_FIELDS));
  return out;
}
