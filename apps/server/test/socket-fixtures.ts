// Rows the socket and bus suites need, written straight to the database so those suites do not
// depend on the REST features they are not about.
import type { Kysely } from 'kysely';
import type { Database } from '../src/storage/schema.ts';
import type { TestServer } from './harness.ts';

type Db = Kysely<Database>;

export async function insertDevice(db: Db, uniqueId: string, groupId: number | null = null): Promise<number> {
  const row = await db
    .insertInto('devices')
    .values({
      name: uniqueId, uniqueId, status: null, disabled: 0, lastUpdate: null, positionId: null, groupId,
      calendarId: null, phone: null, model: null, contact: null, category: 'car', expirationTime: null,
      attributes: '{}', motionState: 0, motionStreak: 0, motionPositionId: null, motionTime: null,
      motionDistance: 0, motionLatitude: 0, motionLongitude: 0, overspeedState: 0, overspeedTime: null,
      overspeedGeofenceId: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertGroup(db: Db, name: string, parentId: number | null = null): Promise<number> {
  const row = await db.insertInto('groups').values({ name, groupId: parentId, attributes: '{}' }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Stores a position and makes it the device's latest. */
export async function insertLatestPosition(db: Db, deviceId: number, latitude: number, longitude: number): Promise<number> {
  const now = Date.now();
  const row = await db
    .insertInto('positions')
    .values({
      deviceId, protocol: 'osmand', serverTime: now, deviceTime: now, fixTime: now, valid: 1, latitude, longitude,
      altitude: 0, speed: 0, course: 0, address: null, accuracy: 0, network: null, geofenceIds: null, attributes: '{}',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('devices').set({ positionId: row.id }).where('id', '=', deviceId).execute();
  return row.id;
}

let userCounter = 0;

/** A plain user with a cookie session (no password login needed). */
export async function userWithSession(server: TestServer, name = `user${++userCounter}`): Promise<{ id: number; cookie: string }> {
  const ctx = server.rastro.ctx;
  const user = await ctx.users.insert({
    name, login: null, email: `${name}-${process.pid}-${Date.now()}@example.com`, phone: null, readonly: 0, administrator: 0,
    map: null, latitude: 0, longitude: 0, zoom: 0, twelveHourFormat: 0, coordinateFormat: null, disabled: 0,
    expirationTime: null, deviceLimit: -1, userLimit: 0, deviceReadonly: 0, limitCommands: 0, disableReports: 0,
    fixedEmail: 0, poiLayer: null, temporary: 0, totpKey: null, hashedPassword: null, salt: null, attributes: '{}',
  });
  const session = await ctx.sessions.create(user.id, null, null);
  return { id: user.id, cookie: `JSESSIONID=${session.id}` };
}

export async function link(db: Db, table: 'userDevice' | 'userGroup', ownerId: number, propertyId: number): Promise<void> {
  await db.insertInto(table).values({ ownerId, propertyId }).execute();
}

export async function unlink(db: Db, table: 'userDevice' | 'userGroup', ownerId: number, propertyId: number): Promise<void> {
  await db.deleteFrom(table).where('ownerId', '=', ownerId).where('propertyId', '=', propertyId).execute();
}
