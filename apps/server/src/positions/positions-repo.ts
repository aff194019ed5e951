// Reads of stored positions for the REST API (the ingest pipeline writes them). `insert` is
// here for the accumulators update and for tests that need history without a device.
import type { Insertable, Kysely } from 'kysely';
import type { Database, PositionTable } from '../storage/schema.ts';
import { notDeletedDevice, visibleDeviceIdsQuery } from '../access/visibility.ts';
import type { PositionRow } from './position-json.ts';

/** Traccar's `report.maxPositions`: the most positions one history request returns. */
export const MAX_HISTORY_POSITIONS = 50_000;
// Lookups by many ids run in slices so no statement carries thousands of parameters.
const CHUNK = 500;

export class PositionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The latest position (devices.positionId) of every device a user sees; of every device
   * when `visibleTo` is undefined (administrators). Lazily deleted devices are left out.
   */
  latest(visibleTo: number | undefined): Promise<PositionRow[]> {
    let query = this.db
      .selectFrom('positions')
      .innerJoin('devices', 'devices.positionId', 'positions.id')
      .selectAll('positions')
      .where(notDeletedDevice('devices.uniqueId'));
    if (visibleTo !== undefined) query = query.where('devices.id', 'in', visibleDeviceIdsQuery(this.db, visibleTo));
    return query.orderBy('positions.deviceId').execute();
  }

  /** The latest position of one device, if it has reported. */
  async latestOf(deviceId: number): Promise<PositionRow | undefined> {
    return this.db
      .selectFrom('positions')
      .innerJoin('devices', 'devices.positionId', 'positions.id')
      .selectAll('positions')
      .where('devices.id', '=', deviceId)
      .executeTakeFirst();
  }

  /** Positions by id (any number of ids), in the order asked; unknown ids are skipped. */
  async byIds(ids: number[]): Promise<PositionRow[]> {
    const found = new Map<number, PositionRow>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += CHUNK) {
      const rows = await this.db.selectFrom('positions').selectAll().where('id', 'in', unique.slice(i, i + CHUNK)).execute();
      for (const r of rows) found.set(r.id, r);
    }
    return unique.flatMap((id) => found.get(id) ?? []);
  }

  insert(values: Insertable<PositionTable>): Promise<PositionRow> {
    return this.db.insertInto('positions').values(values).returningAll().executeTakeFirstOrThrow();
  }

  /**
   * Stores a position and makes it the device's latest in one transaction, so readers never
   * see a positionId that points nowhere.
   */
  insertLatest(values: Insertable<PositionTable>): Promise<PositionRow> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.insertInto('positions').values(values).returningAll().executeTakeFirstOrThrow();
      await trx.updateTable('devices').set({ positionId: row.id }).where('id', '=', values.deviceId).execute();
      return row;
    });
  }
}
