// Body of POST /api/calendars and PUT /api/calendars/{id}: a name and `data`, the iCalendar
// text encoded in base64 (../icalendar.ts checks it). The parsed body holds the decoded text:
// that is what the server stores and the calendar engine reads.
import { z } from '../zod.ts';
import { readCalendarData } from '../icalendar.ts';
import { attributesOrEmpty, OBJECT_EXPECTED, requiredText } from './fields.ts';

const DATA_REQUIRED = 'Data is required - fill in the data field with the iCalendar text encoded in base64';

export const calendarData = z.string({ error: DATA_REQUIRED }).transform((value, ctx) => {
  if (value.trim() === '') {
    ctx.addIssue({ code: 'custom', message: DATA_REQUIRED });
    return z.NEVER;
  }
  const reading = readCalendarData(value);
  if (!reading.ok) {
    ctx.addIssue({ code: 'custom', message: reading.problem });
    return z.NEVER;
  }
  return reading.text;
});

export const calendarSchema = z.object(
  {
    name: requiredText('name', 'Name'),
    data: calendarData,
    attributes: attributesOrEmpty.optional(),
  },
  { error: OBJECT_EXPECTED },
);

export const calendarUpdateSchema = calendarSchema.partial();

export const CALENDAR_WRITABLE_FIELDS = Object.keys(calendarSchema.shape);

export type CalendarInput = z.output<typeof calendarSchema>;
export type CalendarUpdate = z.output<typeof calendarUpdateSchema>;
