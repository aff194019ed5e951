// Server row -> Traccar's Server JSON, and the PUT body -> columns. Computed fields (version,
// emailEnabled, newServer, ...) are added on the way out and ignored on the way in.
import fs from 'node:fs';
import path from 'node:path';
import type { Updateable } from 'kysely';
import type { Server } from '@rastro/domain/entities';
import type { ServerTable } from '../storage/schema.ts';
import { badRequest } from '../http/errors.ts';
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
  /** Only for anonymous callers: no user exists yet. */
  newServer?: boolean;
}

const OPTIONAL_TEXT = ['map', 'bingKey', 'mapUrl', 'overlayUrl', 'poiLayer', 'announcement', 'coordinateFormat'] as const;

export function serverToJson(row: ServerRow, computed: ServerComputed): Server {
  const json: Server = {
    id: row.id,
    registration: toBool(row.registration),
    readonly: toBool(row.readonly),
    deviceReadonly: toBool(row.deviceReadonly),
    limitCommands: toBool(row.limitCommands),
    disableReports: toBool(row.disableReports),
    fixedEmail: toBool(row.fixedEmail),
    latitude: row.latitude,
    longitude: row.longitude,
    zoom: row.zoom,
    twelveHourFormat: toBool(row.twelveHourFormat),
    forceSettings: toBool(row.forceSettings),
    version: rastroVersion(),
    emailEnabled: computed.emailEnabled,
    textEnabled: false,
    geocoderEnabled: false,
    openIdEnabled: false,
    openIdForce: false,
    attributes: parseAttributes(row.attributes),
  };
  // The OpenAPI types these as plain strings: an unset one is left out rather than null.
  for (const key of OPTIONAL_TEXT) {
    const value = row[key];
    if (value !== null) json[key] = value;
  }
  if (computed.newServer !== undefined) json.newServer = computed.newServer;
  return json;
}

const BOOL_FIELDS = ['registration', 'readonly', 'deviceReadonly', 'limitCommands', 'disableReports', 'fixedEmail',
  'twelveHourFormat', 'forceSettings'] as const;

/** Reads a PUT body; fields left out keep their stored value. */
export function serverUpdateFromJson(body: unknown): Updateable<ServerTable> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Invalid server - the body must be a JSON object');
  const input = body as Record<string, unknown>;
  const out: Updateable<ServerTable> = {};
  for (const key of BOOL_FIELDS) {
    const v = input[key];
    if (v === undefined) continue;
    if (typeof v !== 'boolean') throw badRequest(`Invalid ${key} - must be true or false`);
    out[key] = v ? 1 : 0;
  }
  for (const key of OPTIONAL_TEXT) {
    const v = input[key];
    if (v === undefined) continue;
    if (v !== null && typeof v !== 'string') throw badRequest(`Invalid ${key} - must be text`);
    out[key] = v === null || v === '' ? null : v;
  }
  const number = (key: 'latitude' | 'longitude' | 'zoom', min: number, max: number, integer = false) => {
    const v = input[key];
    if (v === undefined || v === null) return;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
      throw badRequest(`Invalid ${key} - must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`);
    }
    out[key] = v;
  };
  number('latitude', -90, 90);
  number('longitude', -180, 180);
  number('zoom', 0, 24, true);
  if (input.attributes !== undefined) {
    const a = input.attributes;
    if (a === null || typeof a !== 'object' || Array.isArray(a)) throw badRequest('Invalid attributes - must be an object');
    out.attributes = JSON.stringify(a);
  }
  return out;
}
