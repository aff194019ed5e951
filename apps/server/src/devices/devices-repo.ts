// Data access for devices. Lists filter, sort and page in SQL; lazily deleted devices
// (`deleted-<x>-<y>`) are left out of every list and lookup here, in one place.
import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { Database, DeviceTable } from '../storage/schema.ts';
import { notDeletedDevice, visibleDeviceIdsQuery } from '../access/visibility.ts';
import { keywordMatch, NO_LIMIT } from '../access/list-params.ts';
import { enforceLimits, type LimitScope } from '../access/limit-scopes.ts';
import { RestrictionsRepo } from '../access/restrictions-repo.ts';
import { isUniqueViolation, writeTransaction } from '../storage/write-transaction.ts';
import { duplicateUniqueId } from './device-rules.ts';
import { DEVICE_JSON_COLUMNS, type DeviceJsonRow, type DeviceRow } from './device-json.ts';

export interface DeviceListFilter {
  /** Devices seen by this user through links (direct + groups); absent = every device. */
  visibleTo?: number;
  /** Devices directly linked to this user (no group expansion). */
  linkedToUser?: number;
  /** Devices linked to this device (`deviceDevice`, used for proximity). */
  linkedToDevice?: number;
  ids?: number[];
  uniqueIds?: string[];
  keyword?: string;
  limit?: number;
  offset?: number;
  excludeAttributes?: boolean;
}

const KEYWORD_COLUMNS = ['devices.name', 'devices.uniqueId', 'devices.phone', 'devices.model', 'devices.contact'];
// Lookups by many ids run in slices so no statement carries thousands of parameters.
const CHUNK = 500;

export class DevicesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  private async listOnce(filter: DeviceListFilter): Promise<DeviceJsonRow[]> {
    const columns = DEVICE_JSON_COLUMNS.filter((c) => c !== 'attributes' || !filter.excludeAttributes).map((c) => `devices.${c}` as const);
    let query = this.db.selectFrom('devices').select(columns).where(notDeletedDevice('devices.uniqueId'));
    if (filter.visibleTo !== undefined) query = query.where('devices.id', 'in', visibleDeviceIdsQuery(this.db, filter.visibleTo));
    if (filter.linkedToUser !== undefined) {
      const userId = filter.linkedToUser;
      query = query.where('devices.id', 'in', this.db.selectFrom('userDevice').select('propertyId').where('ownerId', '=', userId));
    }
    if (filter.linkedToDevice !== undefined) {
      const deviceId = filter.linkedToDevice;
      query = query.where('devices.id', 'in', this.db.selectFrom('deviceDevice').select('propertyId').where('ownerId', '=', deviceId));
    }
    if (filter.ids) query = query.where('devices.id', 'in', filter.ids);
    if (filter.uniqueIds) query = query.where('devices.uniqueId', 'in', filter.uniqueIds);
    if (filter.keyword) query = query.where(keywordMatch(KEYWORD_COLUMNS, filter.keyword));
    // Case-insensitive name order, the same on every database collation.
    query = query.orderBy(sql`lower(${sql.ref('devices.name')})`).orderBy('devices.name').orderBy('devices.id');
    if (filter.limit !== undefined || filter.offset) query = query.limit(filter.limit ?? NO_LIMIT);
    if (filter.offset) query = query.offset(filter.offset);
    const rows: Array<Partial<DeviceJsonRow>> = await query.execute();
    return rows.map((r) => ({ ...r, attributes: r.attributes ?? '{}' }) as DeviceJsonRow);
  }

  /** Devices matching every given condition, sorted by name. */
  async list(filter: DeviceListFilter): Promise<DeviceJsonRow[]> {
    const lookups = filter.ids ?? filter.uniqueIds;
    if (lookups && lookups.length === 0) return [];
    if (!lookups || lookups.length <= CHUNK) return this.listOnce(filter);
    // Exact lookups beyond one slice: query each slice, then sort and page the union here.
    const rows: DeviceJsonRow[] = [];
    for (let i = 0; i < lookups.length; i += CHUNK) {
      const slice = lookups.slice(i, i + CHUNK);
      const part = filter.ids ? { ids: slice as number[] } : { uniqueIds: slice as string[] };
      rows.push(...(await this.listOnce({ ...filter, ...part, limit: undefined, offset: undefined })));
    }
    const unique = [...new Map(rows.map((r) => [r.id, r])).values()];
    const key = (r: DeviceJsonRow) => r.name.toLowerCase();
    unique.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
    const start = filter.offset ?? 0;
    return unique.slice(start, filter.limit === undefined ? undefined : start + filter.limit);
  }

  /** A device that is not lazily deleted. */
  findById(id: number): Promise<DeviceRow | undefined> {
    return this.db.selectFrom('devices').selectAll().where('id', '=', id).where(notDeletedDevice('devices.uniqueId')).executeTakeFirst();
  }

  /** Any device holding this uniqueId (deleted ones too: the column is unique). */
  findByUniqueId(uniqueId: string): Promise<DeviceRow | undefined> {
    return this.db.selectFrom('devices').selectAll().where('uniqueId', '=', uniqueId).executeTakeFirst();
  }

  /** Number of devices on the server, lazily deleted ones excluded (server-wide limits). */
  async countActive(): Promise<number> {
    const row = await this.db
      .selectFrom('devices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(notDeletedDevice('devices.uniqueId'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Creates a device in one transaction that first enforces `scopes` (device-limits.ts) and the
   * uniqueness of its uniqueId, so simultaneous creates never pass a limit together. When
   * `ownerId` is given the device is linked to that user (it counts for them from then on);
   * `restrictedBy` records who set a restriction the new device starts with.
   */
  async insertWithinLimits(values: Insertable<DeviceTable>, ownerId: number | null, scopes: readonly LimitScope[], restrictedBy: number | null = null): Promise<DeviceRow> {
    try {
      return await writeTransaction(this.db, async (trx) => {
        await enforceLimits(trx, scopes);
        // Deleted devices keep their uniqueId's row (the column is unique), so they are looked at too.
        if (await new DevicesRepo(trx).findByUniqueId(values.uniqueId)) throw duplicateUniqueId(values.uniqueId);
        const row = await trx.insertInto('devices').values(values).returningAll().executeTakeFirstOrThrow();
        if (ownerId !== null) await trx.insertInto('userDevice').values({ ownerId, propertyId: row.id }).execute();
        await new RestrictionsRepo(trx).record('deviceRestrictions', row.id, restrictedBy);
        return row;
      });
    } catch (error) {
      // The unique index is the last word when a create elsewhere took the uniqueId first.
      if (isUniqueViolation(error)) throw duplicateUniqueId(values.uniqueId);
      throw error;
    }
  }

  /** Changes a device; `restrictedBy` (see RestrictionsRepo.record) is written with it when given. */
  async update(id: number, values: Updateable<DeviceTable>, restrictedBy?: number | null): Promise<DeviceRow | undefined> {
    try {
      return await writeTransaction(this.db, async (trx) => {
        const row = Object.keys(values).length > 0
          ? await trx.updateTable('devices').set(values).where('id', '=', id).returningAll().executeTakeFirst()
          : await new DevicesRepo(trx).findById(id);
        if (row) await new RestrictionsRepo(trx).record('deviceRestrictions', id, restrictedBy);
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error) && values.uniqueId !== undefined) throw duplicateUniqueId(String(values.uniqueId));
      throw error;
    }
  }

  /** Removes a device; its positions, events and links go with it (foreign keys cascade). */
  async delete(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // Positions and events first, explicitly: a large history is removed in two plain
      // statements instead of relying on the cascade alone.
      await trx.deleteFrom('events').where('deviceId', '=', id).execute();
      await trx.deleteFrom('positions').where('deviceId', '=', id).execute();
      await trx.deleteFrom('devices').where('id', '=', id).execute();
    });
  }
}
