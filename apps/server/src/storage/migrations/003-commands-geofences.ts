import { type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../db.ts';
import { link, withId } from './table-helpers.ts';

// Geofences, saved commands, the command queue, and their link tables (Traccar's
// tc_user_geofence, tc_device_geofence, tc_group_geofence, tc_user_command,
// tc_device_command, tc_group_command, tc_commands_queue).
/* eslint-disable @typescript-eslint/no-explicit-any */
type Db = Kysely<any>;

const LINKS: Array<[string, string, string]> = [
  ['userGeofence', 'users', 'geofences'],
  ['deviceGeofence', 'devices', 'geofences'],
  ['groupGeofence', 'groups', 'geofences'],
  ['userCommand', 'users', 'commands'],
  ['deviceCommand', 'devices', 'commands'],
  ['groupCommand', 'groups', 'commands'],
];

export function commandsGeofences(dialect: DialectName): Migration {
  return {
    async up(db: Db) {
      await withId(dialect, db.schema.createTable('geofences'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('area', 'text', (c) => c.notNull())
        .addColumn('calendarId', 'bigint')
        .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();

      await withId(dialect, db.schema.createTable('commands'))
        .addColumn('description', 'text')
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('textChannel', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();

      await withId(dialect, db.schema.createTable('commandsQueue'))
        .addColumn('deviceId', 'bigint', (c) => c.notNull().references('devices.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('textChannel', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      await db.schema.createIndex('commandsQueue_device').on('commandsQueue').columns(['deviceId', 'id']).execute();

      for (const [name, owner, property] of LINKS) await link(db, name, owner, property);
    },
    async down(db: Db) {
      for (const [name] of [...LINKS].reverse()) await db.schema.dropTable(name).execute();
      await db.schema.dropTable('commandsQueue').execute();
      await db.schema.dropTable('commands').execute();
      await db.schema.dropTable('geofences').execute();
    },
  };
}
