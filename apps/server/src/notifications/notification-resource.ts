// /api/notifications as a resource (resources/resource-routes.ts): which event `type` to tell
// about, through which `notificators`, for every device the user sees (`always`) or for the
// devices and groups linked to it, within `calendarId`'s periods; the command notificator
// sends saved command `commandId`. Both references must be objects the caller may use.
// Linked to users (who see it and receive it), devices and groups. This is the stored object:
// matching events to notifications and delivering them is the notification engine's work.
import type { Notification } from '@rastro/domain/entities';
import { NOTIFICATION_WRITABLE_FIELDS, notificationSchema, notificationUpdateSchema } from '@rastro/domain/schemas/notification';
import { fromBool, parseAttributes, toBool } from '../http/json.ts';
import { parseUpdate, parseWith } from '../http/validate.ts';
import { assertReference } from '../resources/references.ts';
import type { ResourceDefinition, ResourceRow } from '../resources/resource.ts';

export function notificationToJson(row: ResourceRow<'notifications'>): Notification {
  const id = Number(row.id);
  return {
    id,
    type: row.type,
    description: row.description,
    always: toBool(row.always),
    notificators: row.notificators,
    calendarId: row.calendarId === null ? 0 : Number(row.calendarId),
    commandId: row.commandId === null ? 0 : Number(row.commandId),
    attributes: parseAttributes(row.attributes, 'notification.attributes', id),
  };
}

export const notificationResource: ResourceDefinition<'notifications'> = {
  table: 'notifications',
  label: 'notification',
  path: '/api/notifications',
  key: 'notificationId',
  kind: 'notification',
  links: { user: 'userNotification', device: 'deviceNotification', group: 'groupNotification' },
  columns: ['type', 'description', 'always', 'notificators', 'calendarId', 'commandId'],
  hasAttributes: true,
  orderBy: 'description',
  search: ['description'],
  toJson: notificationToJson,
  fromCreate(body) {
    const b = parseWith(notificationSchema, body);
    return {
      type: b.type,
      description: b.description ?? null,
      always: fromBool(b.always),
      notificators: b.notificators ?? null,
      calendarId: b.calendarId ?? null,
      commandId: b.commandId ?? null,
      attributes: JSON.stringify(b.attributes ?? {}),
    };
  },
  fromUpdate(body, current) {
    const b = parseUpdate(notificationUpdateSchema, body, NOTIFICATION_WRITABLE_FIELDS);
    return {
      type: b.type ?? current.type,
      description: b.description !== undefined ? b.description : current.description,
      always: b.always !== undefined ? fromBool(b.always) : current.always,
      notificators: b.notificators !== undefined ? b.notificators : current.notificators,
      calendarId: b.calendarId !== undefined ? b.calendarId : current.calendarId,
      commandId: b.commandId !== undefined ? b.commandId : current.commandId,
      attributes: b.attributes !== undefined ? JSON.stringify(b.attributes) : current.attributes,
    };
  },
  // A reference kept as it was is not checked again: a whole-object PUT must not fail because
  // of a calendar someone else shared and has since unshared.
  async check(ctx, user, values, current) {
    const calendarId = values.calendarId ?? null;
    const commandId = values.commandId ?? null;
    if (calendarId !== null && calendarId !== current?.calendarId) await assertReference(ctx, user, 'calendar', calendarId);
    if (commandId !== null && commandId !== current?.commandId) await assertReference(ctx, user, 'command', commandId);
  },
};
