// An object as the API shows it, read for the audit: the "old" values before an edit or a
// delete, and the saved values where the answer does not carry them. Each kind goes through its
// own feature's JSON converter, so `old` and `data` have the same shape and differ only where
// the values changed.
import type { AuditObjectType } from '@rastro/domain/audit';
import type { AppContext } from '../context.ts';
import { userToJson } from '../users/user-json.ts';
import { DevicesRepo } from '../devices/devices-repo.ts';
import { deviceToJson } from '../devices/device-json.ts';
import { GeofencesRepo } from '../geofences/geofences-repo.ts';
import { geofenceToJson } from '../geofences/geofence-json.ts';
import { GroupsRepo } from '../groups/groups-repo.ts';
import { groupToJson } from '../groups/group-json.ts';
import { CommandsRepo } from '../commands/commands-repo.ts';
import { commandToJson } from '../commands/command-json.ts';
import { driverToJson } from '../drivers/driver-resource.ts';
import { calendarToJson } from '../calendars/calendar-resource.ts';
import { maintenanceToJson } from '../maintenance/maintenance-resource.ts';
import { computedAttributeToJson } from '../attributes/computed-attribute-resource.ts';
import { notificationToJson } from '../notifications/notification-resource.ts';
import { serverToJson } from '../server-info/server-json.ts';

type Loaded = Record<string, unknown> | null;
type Loader = (ctx: AppContext, id: number) => Promise<Loaded>;

const asRecord = (value: object | undefined): Loaded => (value ? (value as unknown as Record<string, unknown>) : null);

const LOADERS: Record<AuditObjectType, Loader> = {
  user: async (ctx, id) => {
    const row = await ctx.users.findById(id);
    return row ? asRecord(userToJson(row)) : null;
  },
  device: async (ctx, id) => {
    const row = await new DevicesRepo(ctx.storage.db).findById(id);
    return row ? asRecord(deviceToJson(row)) : null;
  },
  geofence: async (ctx, id) => {
    const row = await new GeofencesRepo(ctx.storage.db).findById(id);
    return row ? asRecord(geofenceToJson(row)) : null;
  },
  group: async (ctx, id) => {
    const row = await new GroupsRepo(ctx.storage.db).findById(id);
    return row ? asRecord(groupToJson(row)) : null;
  },
  command: async (ctx, id) => {
    const row = await new CommandsRepo(ctx.storage.db).findById(id);
    return row ? asRecord(commandToJson(row)) : null;
  },
  driver: async (ctx, id) => {
    const row = await ctx.storage.db.selectFrom('drivers').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? asRecord(driverToJson(row)) : null;
  },
  calendar: async (ctx, id) => {
    const row = await ctx.storage.db.selectFrom('calendars').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? asRecord(calendarToJson(row)) : null;
  },
  maintenance: async (ctx, id) => {
    const row = await ctx.storage.db.selectFrom('maintenances').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? asRecord(maintenanceToJson(row)) : null;
  },
  computedAttribute: async (ctx, id) => {
    const row = await ctx.storage.db.selectFrom('computedAttributes').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? asRecord(computedAttributeToJson(row)) : null;
  },
  notification: async (ctx, id) => {
    const row = await ctx.storage.db.selectFrom('notifications').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? asRecord(notificationToJson(row)) : null;
  },
  // The stored settings only: what an administrator sees besides them (disk space) is not an edit.
  server: async (ctx) => {
    // Straight from the table: the shared cache may hold the row from before the edit.
    const row = await ctx.storage.db.selectFrom('server').selectAll().orderBy('id').executeTakeFirstOrThrow();
    return asRecord(serverToJson(row, { emailEnabled: ctx.mailer.enabled, storageSpace: null, newServer: false }));
  },
};

/** The object as the API shows it now, or null when there is none. */
export function loadAuditObject(ctx: AppContext, type: AuditObjectType, id: number): Promise<Loaded> {
  return LOADERS[type](ctx, id);
}
