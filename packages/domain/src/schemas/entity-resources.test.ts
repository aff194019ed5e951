// Bodies of the entity resources: calendars, drivers, maintenance, computed attributes and
// notifications (what they keep, what they refuse and how the refusal reads).
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { EVENT_TYPES, isEventType } from '../event-types.ts';
import { calendarSchema, calendarUpdateSchema } from './calendar.ts';
import { computedAttributeSchema } from './computed-attribute.ts';
import { driverSchema } from './driver.ts';
import { maintenanceSchema } from './maintenance.ts';
import { notificationSchema, notificationUpdateSchema } from './notification.ts';
import { errorText } from './messages.ts';

function refusal(schema: z.ZodType, value: unknown): string {
  const result = schema.safeParse(value);
  if (result.success) throw new Error(`expected a refusal of ${JSON.stringify(value)}`);
  return errorText(result.error);
}

const ICS = 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20240101T080000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('calendar body', () => {
  it('keeps the decoded iCalendar text, ignoring id and unknown fields', () => {
    expect(calendarSchema.parse({ id: 4, name: ' Weekdays ', data: b64(ICS), other: 1 })).toEqual({ name: 'Weekdays', data: ICS });
    expect(calendarUpdateSchema.parse({ attributes: null })).toEqual({ attributes: {} });
  });

  it('names what is wrong with the data', () => {
    expect(refusal(calendarSchema, { name: 'a' })).toBe('Data is required - fill in the data field with the iCalendar text encoded in base64');
    expect(refusal(calendarSchema, { name: 'a', data: '' })).toBe('Data is required - fill in the data field with the iCalendar text encoded in base64');
    expect(refusal(calendarSchema, { name: 'a', data: '%%' })).toBe('Invalid data - must be base64 text (A-Z, a-z, 0-9, +, /, = padding)');
    expect(refusal(calendarSchema, { name: 'a', data: b64('BEGIN:VCALENDAR\n') })).toBe('Invalid data - must end with END:VCALENDAR (VCALENDAR is never closed)');
    expect(refusal(calendarSchema, { name: 'a', data: 7 })).toBe('Data is required - fill in the data field with the iCalendar text encoded in base64');
  });
});

describe('driver body', () => {
  it('needs a name and a unique identifier, both trimmed', () => {
    expect(driverSchema.parse({ name: ' Ana ', uniqueId: 12345 })).toEqual({ name: 'Ana', uniqueId: '12345' });
    expect(refusal(driverSchema, { name: 'Ana' })).toBe('Unique identifier is required - fill in the uniqueId field');
  });
});

describe('maintenance body', () => {
  it('reads start and period as numbers (texts from forms too), null and "" as 0', () => {
    expect(maintenanceSchema.parse({ name: 'Oil', type: 'totalDistance', start: '1000.5', period: 5000 })).toEqual({ name: 'Oil', type: 'totalDistance', start: 1000.5, period: 5000 });
    expect(maintenanceSchema.parse({ name: 'Oil', type: 'hours', start: null, period: '' })).toEqual({ name: 'Oil', type: 'hours', start: 0, period: 0 });
    expect(maintenanceSchema.parse({ name: 'Oil', type: 'hours', start: -5 })).toMatchObject({ start: -5 });
  });

  it('refuses a negative period and anything not a finite number', () => {
    expect(refusal(maintenanceSchema, { name: 'Oil', type: 'hours', period: -0.5 })).toBe('Invalid period - must be a number of at least 0');
    expect(refusal(maintenanceSchema, { name: 'Oil', type: 'hours', period: 'Infinity' })).toBe('Invalid period - must be a number of at least 0');
    expect(refusal(maintenanceSchema, { name: 'Oil', type: 'hours', start: true })).toBe('Invalid start - must be a number');
    expect(refusal(maintenanceSchema, { name: 'Oil' })).toBe('Type is required - fill in the type field');
  });
});

describe('computed attribute body', () => {
  it('keeps the output type in lower case and the priority as a whole number', () => {
    expect(computedAttributeSchema.parse({ description: 'd', attribute: 'a', expression: 'adc1 * 2', type: 'Number', priority: '-2' }))
      .toEqual({ description: 'd', attribute: 'a', expression: 'adc1 * 2', type: 'number', priority: -2 });
    expect(computedAttributeSchema.parse({ description: 'd', attribute: 'a', expression: 'x', type: 'boolean', priority: null })).toMatchObject({ priority: 0 });
  });

  it('needs a non-blank expression and one of the three types', () => {
    expect(refusal(computedAttributeSchema, { description: 'd', attribute: 'a', expression: ' ', type: 'number' })).toBe('Expression is required - fill in the expression field');
    expect(refusal(computedAttributeSchema, { description: 'd', attribute: 'a', expression: 'x' })).toBe('Type is required - fill in the type field (string, number or boolean)');
    expect(refusal(computedAttributeSchema, { description: 'd', attribute: 'a', expression: 'x', type: 'text' })).toBe('Invalid type - must be one of string, number, boolean');
  });
});

describe('notification body', () => {
  it('tidies the notificator list and reads references and flags as Traccar clients send them', () => {
    expect(notificationSchema.parse({ type: 'alarm', always: 1, notificators: ' web, ,mail ', calendarId: 0, commandId: '4', attributes: { alarms: 'sos' } }))
      .toEqual({ type: 'alarm', always: true, notificators: 'web,mail', calendarId: null, commandId: 4, attributes: { alarms: 'sos' } });
    expect(notificationUpdateSchema.parse({ notificators: ' , ' })).toEqual({ notificators: null });
  });

  it('accepts exactly the event types of GET /api/notifications/types', () => {
    for (const type of EVENT_TYPES) expect(notificationSchema.parse({ type }).type).toBe(type);
    expect(isEventType('allEvents')).toBe(false);
    expect(refusal(notificationSchema, { type: 'textMessage' })).toMatch(/^Invalid type - must be an event type of GET \/api\/notifications\/types/);
    expect(refusal(notificationSchema, {})).toBe('Type is required - fill in the type field with an event type (GET /api/notifications/types)');
    expect(refusal(notificationSchema, { type: 'alarm', notificators: 'x'.repeat(129) })).toBe('Invalid notificators - at most 128 characters');
  });
});
