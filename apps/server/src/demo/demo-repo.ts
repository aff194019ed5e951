// Database side of the demo: find the demo vehicles, create them on an empty database (linked
// to the administrators, as if an administrator had added them), and read where each was.
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { DEMO_PREFIX, type DemoVehicle } from './fleet.ts';

export interface DemoDeviceRow {
  id: number;
  uniqueId: string;
}

export async function findDemoDevices(db: Kysely<Database>): Promise<DemoDeviceRow[]> {
  return db
    .selectFrom('devices')
    .select(['id', 'uniqueId'])
    .where('uniqueId', 'like', `${DEMO_PREFIX}%`)
    .orderBy('uniqueId')
    .execute();
}

export async function countDevices(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('devices').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Inserts the fleet and links every device to every administrator, in one transaction. */
export async function createDemoDevices(db: Kysely<Database>, fleet: readonly DemoVehicle[]): Promise<DemoDeviceRow[]> {
  return db.transaction().execute(async (trx) => {
    const admins = await trx.selectFrom('users').select('id').where('administrator', '=', 1).execute();
    const created: DemoDeviceRow[] = [];
    for (const v of fleet) {
      const row = await trx
        .insertInto('devices')
        .values({
          name: v.name,
          uniqueId: v.uniqueId,
          status: null,
          disabled: 0,
          lastUpdate: null,
          positionId: null,
          groupId: null,
          calendarId: null,
          phone: null,
          model: `${v.brand} ${v.model}`,
          contact: null,
          category: v.category,
          expirationTime: null,
          // `plate` for our client, `placa`/`brand`/`model` where Tarkan-era screens look.
          attributes: JSON.stringify({ plate: v.plate, placa: v.plate, brand: v.brand, model: v.model, demo: true }),
          motionState: 0,
          motionStreak: 0,
          motionPositionId: null,
          motionTime: null,
          motionDistance: 0,
          motionLatitude: 0,
          motionLongitude: 0,
          overspeedState: 0,
          overspeedTime: null,
          overspeedGeofenceId: 0,
        })
        .returning(['id', 'uniqueId'])
        .executeTakeFirstOrThrow();
      created.push(row);
      if (admins.length > 0) {
        await trx
          .insertInto('userDevice')
          .values(admins.map((a) => ({ ownerId: a.id, propertyId: row.id })))
          .execute();
      }
    }
    return created;
  });
}

/** Last stored coordinates of each device that has a position. */
export async function lastCoordinates(db: Kysely<Database>, deviceIds: number[]): Promise<Map<number, [number, number]>> {
  const result = new Map<number, [number, number]>();
  if (deviceIds.length === 0) return result;
  const rows = await db
    .selectFrom('devices')
    .innerJoin('positions', 'positions.id', 'devices.positionId')
    .select(['devices.id as id', 'positions.latitude', 'positions.longitude'])
    .where('devices.id', 'in', deviceIds)
    .execute();
  for (const r of rows) result.set(r.id, [r.latitude, r.longitude]);
  return result;
}
