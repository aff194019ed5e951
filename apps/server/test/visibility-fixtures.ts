// Helpers for the devices / groups / permissions / positions / visibility suites: users made
// straight in the database (with a password they can log in with), positions written through
// the positions repository, server settings changed through the cached server row.
import type { Insertable, Updateable } from 'kysely';
import { hashPassword, type StoredHash } from '../src/auth/passwords.ts';
import { updateServerRow } from '../src/server-info/server-repo.ts';
import { PositionsRepo } from '../src/positions/positions-repo.ts';
import type { PositionRow } from '../src/positions/position-json.ts';
import type { PositionTable, ServerTable, UserTable } from '../src/storage/schema.ts';
import type { UserRow } from '../src/users/user-json.ts';
import type { TestClient, TestServer } from './harness.ts';

export const USER_PASSWORD = 'user-pass';

// scrypt is slow on purpose: hash the shared test password once per file.
let hashed: Promise<StoredHash> | null = null;

export interface TestUser {
  row: UserRow;
  client: TestClient;
}

/** Inserts a user (a plain user unless `fields` says otherwise) and logs a client in as them. */
export async function makeUser(server: TestServer, email: string, fields: Partial<Insertable<UserTable>> = {}): Promise<TestUser> {
  hashed ??= hashPassword(USER_PASSWORD);
  const hash = await hashed;
  const row = await server.rastro.ctx.users.insert({
    name: email, login: null, email, phone: null, readonly: 0, administrator: 0,
    map: null, latitude: 0, longitude: 0, zoom: 0, twelveHourFormat: 0, coordinateFormat: null, disabled: 0,
    expirationTime: null, deviceLimit: -1, userLimit: 0, deviceReadonly: 0, limitCommands: 0, disableReports: 0,
    fixedEmail: 0, poiLayer: null, temporary: 0, totpKey: null, hashedPassword: hash.hashedPassword, salt: hash.salt,
    attributes: '{}',
    ...fields,
  });
  const client = server.client();
  await client.login(email, USER_PASSWORD);
  return { row, client };
}

/** Links in a link table directly (arranging a scenario without going through the API). */
export async function link(server: TestServer, table: 'userDevice' | 'userGroup' | 'userUser' | 'deviceDevice', ownerId: number, propertyId: number) {
  await server.rastro.ctx.storage.db.insertInto(table).values({ ownerId, propertyId }).execute();
}

let positionClock = Date.parse('2024-05-01T10:00:00Z');

/** Stores a position as the device's latest (as the ingest pipeline would). */
export async function addPosition(server: TestServer, deviceId: number, fields: Partial<Insertable<PositionTable>> = {}): Promise<PositionRow> {
  positionClock += 60_000;
  const at = fields.fixTime ?? positionClock;
  return new PositionsRepo(server.rastro.ctx.storage.db).insertLatest({
    deviceId, protocol: 'osmand', serverTime: at, deviceTime: at, fixTime: at, valid: 1,
    latitude: -23.5, longitude: -46.6, altitude: 760, speed: 10, course: 90, address: null, accuracy: 5,
    network: null, geofenceIds: null, attributes: '{}',
    ...fields,
  });
}

export async function setServer(server: TestServer, values: Updateable<ServerTable>): Promise<void> {
  await updateServerRow(server.rastro.ctx, values);
}

interface Created { id: number }

/** POSTs an object and returns its JSON, failing loudly when the server refuses. */
export async function create<T extends Created>(client: TestClient, path: string, body: unknown): Promise<T> {
  const res = await client.post<T>(path, body);
  if (res.status !== 200) throw new Error(`POST ${path} failed: ${res.status} ${res.text}`);
  return res.json;
}

/** Sorted ids of a JSON list. */
export const idsOf = (list: Array<{ id: number }>): number[] => list.map((x) => x.id).sort((a, b) => a - b);
