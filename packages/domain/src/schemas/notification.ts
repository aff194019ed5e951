// Body of POST /api/notifications and PUT /api/notifications/{id}: which event `type` to tell
// about (one of GET /api/notifications/types), through which `notificators` (comma-separated:
// web, mail, sms, firebase, telegram, command...), for every device the user sees (`always`)
// or for the devices and groups linked to it, within `calendarId`'s periods; the `command`
// notificator sends saved command `commandId`. Attributes carry `alarms`, `geofenceIds`,
// `priority` and the client's own keys.
import { z } from '../zod.ts';
import { EVENT_TYPES, isEventType, type EventType } from '../event-types.ts';
import { attributesOrEmpty, flag, OBJECT_EXPECTED, optionalText, ref } from './fields.ts';
import { textProblem } from './text.ts';

const TYPE_REQUIRED = 'Type is required - fill in the type field with an event type (GET /api/notifications/types)';

export const notificationType = z.string({ error: TYPE_REQUIRED }).transform((value, ctx) => {
  const type = value.trim();
  if (type === '') {
    ctx.addIssue({ code: 'custom', message: TYPE_REQUIRED });
    return z.NEVER;
  }
  if (isEventType(type)) return type satisfies EventType;
  ctx.addIssue({ code: 'custom', message: `must be an event type of GET /api/notifications/types (${EVENT_TYPES.slice(0, 3).join(', ')}...)` });
  return z.NEVER;
});

/** Longest notificator list (Traccar's column holds 128 characters). */
export const NOTIFICATORS_MAX = 128;

/** "web, mail,,sms" → "web,mail,sms"; nothing → null. */
export const notificators = z.union([z.string(), z.null()], { error: 'a comma-separated text is expected' }).transform((value, ctx) => {
  if (value === null) return null;
  const text = value.split(',').map((n) => n.trim()).filter((n) => n !== '').join(',');
  if (text === '') return null;
  const problem = text.length > NOTIFICATORS_MAX ? `at most ${NOTIFICATORS_MAX} characters` : textProblem(text);
  if (problem) {
    ctx.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  }
  return text;
});

export const notificationSchema = z.object(
  {
    type: notificationType,
    description: optionalText().optional(),
    always: flag.optional(),
    notificators: notificators.optional(),
    calendarId: ref.optional(),
    commandId: ref.optional(),
    attributes: attributesOrEmpty.optional(),
  },
  { error: OBJECT_EXPECTED },
);

export const notificationUpdateSchema = notificationSchema.partial();

export const NOTIFICATION_WRITABLE_FIELDS = Object.keys(notificationSchema.shape);

export type NotificationInput = z.output<typeof notificationSchema>;
export type NotificationUpdate = z.output<typeof notificationUpdateSchema>;
