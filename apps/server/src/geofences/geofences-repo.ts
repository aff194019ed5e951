// Data access for geofences: lists (extended flavour), CRUD, and what applies to a device.
import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import { parseArea, type GeofenceArea } from '@rastro/domain/geofence-area';
import type { Database, GeofenceTable } from '../storage/schema.ts';
import { keywordMatch, NO_LIMIT } from '../access/list-params.ts';
import { linkedTo, linkedToDeviceOrGroups, type ExtendedListFilter } from '../access/extended-list.ts';
import type { GeofenceRow } from './geofence-json.ts';

/** A geofence with its area already parsed (for the events engine). */
export interface DeviceGeofence {
  row: GeofenceRow;
  area: GeofenceArea;
  attributes: Record<string, unknown>;
}

export class GeofencesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async list(filter: ExtendedListFilter): Promise<GeofenceRow[]> {
    let query = this.db
      .selectFrom('geofences')
      .select(['geofences.id', 'geofences.name', 'geofences.description', 'geofences.area', 'geofences.calendarId']);
    if (!filter.excludeAttributes) query = query.select('geofences.attributes');
    if (filter.userId !== undefined) query = query.where(linkedTo('userGeofence', filter.userId, 'geofences.id'));
    if (filter.groupId !== undefined) query = query.where(linkedTo('groupGeofence', filter.groupId, 'geofences.id'));
    if (filter.deviceId !== undefined) query = query.where(linkedTo('deviceGeofence', filter.deviceId, 'geofences.id'));
    if (filter.keyword) query = query.where(keywordMatch(['geofences.name'], filter.keyword));
    query = query.orderBy(sql`lower(${sql.ref('geofences.name')})`).orderBy('geofences.name').orderBy('geofences.id');
    if (filter.limit !== undefined || filter.offset) query = query.limit(filter.limit ?? NO_LIMIT);
    if (filter.offset) query = query.offset(filter.offset);
    const rows = await query.execute();
    return rows.map((r) => ({ attributes: '{}', ...r }));
  }

  findById(id: number): Promise<GeofenceRow | undefined> {
    return this.db.selectFrom('geofences').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async isLinkedToUser(userId: number, id: number): Promise<boolean> {
    const row = await this.db.selectFrom('userGeofence').select('ownerId').where('ownerId', '=', userId).where('propertyId', '=', id).executeTakeFirst();
    return row !== undefined;
  }

  insert(values: Insertable<GeofenceTable>): Promise<GeofenceRow> {
    return this.db.insertInto('geofences').values(values).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, values: Updateable<GeofenceTable>): Promise<GeofenceRow | undefined> {
    return this.db.updateTable('geofences').set(values).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** Deletes a geofence; its links go with it (foreign keys cascade). */
  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('geofences').where('id', '=', id).execute();
  }

  /**
   * The geofences that apply to a device in processing: linked to the device or to its
   * group, parent or grandparent group (links to users do not apply). Areas are parsed; a
   * stored area that no longer parses is skipped.
   */
  async geofencesForDevice(deviceId: number): Promise<DeviceGeofence[]> {
    const rows = await this.db
      .selectFrom('geofences')
      .selectAll()
      .where(linkedToDeviceOrGroups('deviceGeofence', 'groupGeofence', deviceId, 'geofences.id'))
      .orderBy('geofences.id')
      .execute();
    const result: DeviceGeofence[] = [];
    for (const row of rows) {
      const parsed = parseArea(row.area);
      if (!parsed.ok) continue;
      let attributes: Record<string, unknown> = {};
      try {
        const value = JSON.parse(row.attributes) as unknown;
        if (value && typeof value === 'object' && !Array.isArray(value)) attributes = value as Record<string, unknown>;
      } catch {
        /* unreadable attributes count as none */
      }
      result.push({ row, area: parsed.area, attributes });
    }
    return result;
  }
}
