// What the calendars dialog offers (tarkan-reference §3.13.11: bit 88 to see, 89 add, 90 edit,
// 91 delete; a read-only account changes nothing) and how a stored calendar is read for the
// list and the editor: its base64 `data` decoded, then read into the form when the form can
// show it exactly (packages/domain calendar-form.ts).
import type { Calendar, User } from '@rastro/domain/entities';
import { readCalendarData } from '@rastro/domain/icalendar';
import { nextOccurrences, readCalendar, type CalendarForm } from '@rastro/domain/calendar-form';
import { hasPermission, PERMISSION_BITS, type PermissionServer } from '@rastro/domain/permissions';
import { zoneOf } from '../history/index.ts';

export interface CalendarAbilities {
  list: boolean;
  add: boolean;
  edit: boolean;
  remove: boolean;
}

export function calendarAbilities(me: User, server: PermissionServer & { readonly?: boolean }): CalendarAbilities {
  const can = (bit: number) => hasPermission(me, server, bit);
  const list = can(PERMISSION_BITS.calendars);
  const writes = list && (me.administrator || !(me.readonly || server.readonly === true));
  return {
    list,
    add: writes && can(PERMISSION_BITS.calendarsCreate),
    edit: writes && can(PERMISSION_BITS.calendarsEdit),
    remove: writes && can(PERMISSION_BITS.calendarsDelete),
  };
}

/** The zone new calendars are written in: the user's `timezone`, else the server's, else the browser's. */
export function calendarZone(user?: Record<string, unknown> | null, server?: Record<string, unknown> | null): string {
  return zoneOf(user, server) ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** A stored calendar as the editor sees it: its form, or null when only its name may change. */
export function calendarForm(calendar: Pick<Calendar, 'data'>): CalendarForm | null {
  const data = readCalendarData(calendar.data ?? '');
  if (!data.ok) return null;
  const reading = readCalendar(data.text);
  return reading.editable ? reading.form : null;
}

/** The start of a calendar's next occurrence (or one under way): null when none, 'custom' when unknown. */
export function nextStart(calendar: Pick<Calendar, 'data'>, now: number): number | null | 'custom' {
  const form = calendarForm(calendar);
  if (!form) return 'custom';
  return nextOccurrences(form, now, 1)[0]?.start ?? null;
}
