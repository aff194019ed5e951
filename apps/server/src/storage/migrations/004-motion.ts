import { type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../db.ts';

// Trip and stop segments closed by the live motion state machine (motion/), and the machine's
// persisted state per device (Traccar keeps it in hidden tc_devices columns). A segment row
// holds exactly what /api/reports/trips and /stops answer, so long reports read segments
// instead of positions. Position references are plain ids (no foreign key: positions may be
// purged while their segments stay).
/* eslint-disable @typescript-eslint/no-explicit-any */
type Db = Kysely<any>;

export function motion(dialect: DialectName): Migration {
  return {
    async up(db: Db) {
      const id = dialect === 'postgres'
        ? db.schema.createTable('motionSegments').addColumn('id', 'bigserial', (c) => c.primaryKey())
        : db.schema.createTable('motionSegments').addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await id
        .addColumn('deviceId', 'bigint', (c) => c.notNull().references('devices.id').onDelete('cascade'))
        // 'trip' or 'stop'; 'late' marks a position the live machine skipped (replays skip it too)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('startTime', 'bigint', (c) => c.notNull())
        .addColumn('endTime', 'bigint', (c) => c.notNull())
        // fixTime of the position whose processing closed the segment (>= endTime).
        .addColumn('closedTime', 'bigint', (c) => c.notNull())
        .addColumn('startPositionId', 'bigint')
        .addColumn('endPositionId', 'bigint')
        // The positions whose processing opened / closed the segment.
        .addColumn('openedById', 'bigint')
        .addColumn('closedById', 'bigint')
        .addColumn('startLat', 'double precision', (c) => c.notNull())
        .addColumn('startLon', 'double precision', (c) => c.notNull())
        .addColumn('endLat', 'double precision', (c) => c.notNull())
        .addColumn('endLon', 'double precision', (c) => c.notNull())
        .addColumn('startAddress', 'text')
        .addColumn('endAddress', 'text')
        .addColumn('distance', 'double precision', (c) => c.notNull())
        .addColumn('maxSpeed', 'double precision', (c) => c.notNull())
        .addColumn('startOdometer', 'double precision', (c) => c.notNull())
        .addColumn('endOdometer', 'double precision', (c) => c.notNull())
        .addColumn('spentFuel', 'double precision', (c) => c.notNull())
        .addColumn('startHours', 'double precision')
        .addColumn('endHours', 'double precision')
        .addColumn('driverUniqueId', 'text')
        .execute();
      await db.schema.createIndex('motionSegments_device_closed').on('motionSegments').columns(['deviceId', 'closedTime']).execute();

      await db.schema
        .createTable('motionStates')
        .addColumn('deviceId', 'bigint', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
        .addColumn('moving', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('startPositionId', 'bigint')
        .addColumn('decidedById', 'bigint')
        .execute();
    },
    async down(db: Db) {
      await db.schema.dropTable('motionStates').execute();
      await db.schema.dropTable('motionSegments').execute();
    },
  };
}
