import { describe, expect, it } from 'vitest';
import {
  calendarEditorSchema, calendarFormSchema, formatCalendar, instantOf, nextOccurrences, readCalendar, wallTextAt,
  type CalendarForm, type CalendarSchedule,
} from './calendar-form.ts';
import { icalendarProblem } from './icalendar.ts';

const schedule = (over: Partial<CalendarSchedule>): CalendarSchedule => ({
  start: '2024-01-01T08:00', end: '2024-01-01T18:00', repeat: 'none', weekdays: [], expiry: 'never', count: 1, until: '', ...over,
});
const at = (iso: string) => Date.parse(iso);
const walls = (form: CalendarForm, from: string, n = 5) =>
  nextOccurrences(form, at(from), n).map((o) => `${wallTextAt(o.start, form.timeZone)}/${wallTextAt(o.end, form.timeZone)}`);
const utc = (form: CalendarForm, from: string, n = 5) => nextOccurrences(form, at(from), n).map((o) => new Date(o.start).toISOString());

describe('form → iCalendar', () => {
  it('writes one VEVENT per schedule with zoned DTSTART/DTEND and the RRULE Traccar reads', () => {
    const form: CalendarForm = {
      timeZone: 'America/Sao_Paulo',
      schedules: [
        schedule({ repeat: 'weekly', weekdays: ['MO', 'WE', 'FR'], expiry: 'count', count: 12 }),
        schedule({ start: '2024-01-31T09:00', end: '2024-01-31T10:00', repeat: 'monthly', expiry: 'until', until: '2024-12-31' }),
        schedule({ start: '2024-03-10T22:00', end: '2024-03-11T06:00' }),
      ],
    };
    const text = formatCalendar(form);
    expect(icalendarProblem(text)).toBeNull();
    expect(text.split('\r\n')).toEqual([
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Rastro//Calendar//EN',
      'BEGIN:VEVENT', 'UID:rastro-1', 'DTSTART;TZID=America/Sao_Paulo:20240101T080000', 'DTEND;TZID=America/Sao_Paulo:20240101T180000',
      'RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=12', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:rastro-2', 'DTSTART;TZID=America/Sao_Paulo:20240131T090000', 'DTEND;TZID=America/Sao_Paulo:20240131T100000',
      // 2024-12-31 23:59:59 at -03:00.
      'RRULE:FREQ=MONTHLY;BYMONTHDAY=31;UNTIL=20250101T025959Z', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:rastro-3', 'DTSTART;TZID=America/Sao_Paulo:20240310T220000', 'DTEND;TZID=America/Sao_Paulo:20240311T060000',
      'END:VEVENT', 'END:VCALENDAR', '',
    ]);
    expect(readCalendar(text)).toEqual({ editable: true, form });
  });

  it('reads what Tarkan and traccar-web write (VTIMEZONE, UID, SUMMARY, LF lines, weekly without BYDAY)', () => {
    const tarkan = [
      'BEGIN:VCALENDAR', 'PRODID:-//Tarkan//KoreAG//EN', 'VERSION:2.0',
      'BEGIN:VTIMEZONE', 'TZID:America/Sao_Paulo', 'BEGIN:STANDARD', 'TZOFFSETFROM:-0300', 'TZOFFSETTO:-0300', 'DTSTART:19700101T000000', 'END:STANDARD', 'END:VTIMEZONE',
      'BEGIN:VEVENT', 'DTSTART;TZID=America/Sao_Paulo:20240105T080000', 'DTEND;TZID=America/Sao_Paulo:20240105T120000', 'RRULE:FREQ=WEEKLY', 'SUMMARY:Event', 'END:VEVENT',
      'END:VCALENDAR',
    ].join('\n');
    expect(readCalendar(tarkan)).toEqual({
      editable: true,
      form: { timeZone: 'America/Sao_Paulo', schedules: [schedule({ start: '2024-01-05T08:00', end: '2024-01-05T12:00', repeat: 'weekly', weekdays: ['FR'] })] },
    });
    const utcEvent = 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20240101T080000Z\r\nDTEND:20240101T090000Z\r\nRRULE:FREQ=DAILY;INTERVAL=1;COUNT=3\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
    expect(readCalendar(utcEvent)).toEqual({
      editable: true,
      form: { timeZone: 'UTC', schedules: [schedule({ start: '2024-01-01T08:00', end: '2024-01-01T09:00', repeat: 'daily', expiry: 'count', count: 3 })] },
    });
  });

  it('says why hand-written calendars cannot be shown, instead of dropping what it does not know', () => {
    const wrap = (event: string) => `BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;TZID=Europe/Lisbon:20240101T080000\nDTEND;TZID=Europe/Lisbon:20240101T090000\n${event}END:VEVENT\nEND:VCALENDAR\n`;
    expect(readCalendar(wrap('RRULE:FREQ=WEEKLY;INTERVAL=2\n'))).toEqual({ editable: false, reason: 'rule parts INTERVAL are not shown by the editor' });
    expect(readCalendar(wrap('RRULE:FREQ=HOURLY\n'))).toMatchObject({ editable: false });
    expect(readCalendar(wrap('EXDATE;TZID=Europe/Lisbon:20240102T080000\n'))).toEqual({ editable: false, reason: 'property EXDATE is not shown by the editor' });
    expect(readCalendar(wrap('RRULE:FREQ=MONTHLY;BYDAY=1MO\n'))).toMatchObject({ editable: false });
    expect(readCalendar(wrap('RRULE:FREQ=DAILY;UNTIL=20240105T120000Z\n'))).toEqual({ editable: false, reason: 'UNTIL is not the end of a day' });
    expect(readCalendar(wrap('BEGIN:VALARM\nEND:VALARM\n'))).toMatchObject({ editable: false });
    expect(readCalendar('BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20240101T080000\nDTEND:20240101T090000\nEND:VEVENT\nEND:VCALENDAR')).toEqual({ editable: false, reason: 'DTSTART has no time zone (floating time)' });
    expect(readCalendar('BEGIN:VCALENDAR\nEND:VCALENDAR')).toEqual({ editable: false, reason: 'it has no events' });
  });
});

describe('occurrences', () => {
  it('repeats weekly on the chosen weekdays and stops after COUNT', () => {
    const form: CalendarForm = { timeZone: 'UTC', schedules: [schedule({ repeat: 'weekly', weekdays: ['MO', 'FR'], expiry: 'count', count: 3 })] };
    expect(walls(form, '2023-12-01T00:00:00Z')).toEqual(['2024-01-01T08:00/2024-01-01T18:00', '2024-01-05T08:00/2024-01-05T18:00', '2024-01-08T08:00/2024-01-08T18:00']);
    // An occurrence under way is still "next"; ended ones are not.
    expect(walls(form, '2024-01-05T10:00:00Z')).toEqual(['2024-01-05T08:00/2024-01-05T18:00', '2024-01-08T08:00/2024-01-08T18:00']);
  });

  it('skips months without the 31st and keeps the end of month; Feb 29 yearly only in leap years', () => {
    const monthly: CalendarForm = { timeZone: 'UTC', schedules: [schedule({ start: '2024-01-31T09:00', end: '2024-01-31T10:00', repeat: 'monthly' })] };
    expect(walls(monthly, '2024-01-01T00:00:00Z').map((w) => w.slice(0, 10))).toEqual(['2024-01-31', '2024-03-31', '2024-05-31', '2024-07-31', '2024-08-31']);
    const leap: CalendarForm = { timeZone: 'UTC', schedules: [schedule({ start: '2024-02-29T09:00', end: '2024-02-29T10:00', repeat: 'yearly' })] };
    expect(walls(leap, '2024-03-01T00:00:00Z', 2).map((w) => w.slice(0, 10))).toEqual(['2028-02-29', '2032-02-29']);
  });

  it('stops at the end of the UNTIL day in the calendar zone', () => {
    const form: CalendarForm = { timeZone: 'America/Sao_Paulo', schedules: [schedule({ start: '2024-01-01T22:00', end: '2024-01-01T23:00', repeat: 'daily', expiry: 'until', until: '2024-01-03' })] };
    expect(walls(form, '2024-01-01T00:00:00Z')).toEqual(['2024-01-01T22:00/2024-01-01T23:00', '2024-01-02T22:00/2024-01-02T23:00', '2024-01-03T22:00/2024-01-03T23:00']);
  });

  it('keeps the wall time across America/Sao_Paulo historical DST (2018: -03 → -02 at midnight of 4 Nov)', () => {
    const form: CalendarForm = { timeZone: 'America/Sao_Paulo', schedules: [schedule({ start: '2018-11-02T08:00', end: '2018-11-02T09:00', repeat: 'daily' })] };
    expect(utc(form, '2018-11-01T00:00:00Z', 4)).toEqual(['2018-11-02T11:00:00.000Z', '2018-11-03T11:00:00.000Z', '2018-11-04T10:00:00.000Z', '2018-11-05T10:00:00.000Z']);
    // 00:30 on 4 Nov 2018 did not exist there: read with the offset before the gap (01:30 -02).
    expect(new Date(instantOf({ year: 2018, month: 11, day: 4, hour: 0, minute: 30, second: 0 }, 'America/Sao_Paulo')).toISOString()).toBe('2018-11-04T03:30:00.000Z');
    // 23:30 on 16 Feb 2019 happened twice (clocks went back at midnight): the first one.
    expect(new Date(instantOf({ year: 2019, month: 2, day: 16, hour: 23, minute: 30, second: 0 }, 'America/Sao_Paulo')).toISOString()).toBe('2019-02-17T01:30:00.000Z');
  });

  it('keeps the wall time across Europe/Lisbon DST, an event over the night of the change included', () => {
    const form: CalendarForm = { timeZone: 'Europe/Lisbon', schedules: [schedule({ start: '2024-03-29T22:00', end: '2024-03-30T06:00', repeat: 'daily', expiry: 'count', count: 3 })] };
    const occurrences = nextOccurrences(form, at('2024-03-01T00:00:00Z'));
    expect(occurrences.map((o) => new Date(o.start).toISOString())).toEqual(['2024-03-29T22:00:00.000Z', '2024-03-30T22:00:00.000Z', '2024-03-31T21:00:00.000Z']);
    // The night of 30→31 March has an hour less: 22:00 to 06:00 lasts 7 hours.
    expect(occurrences.map((o) => (o.end - o.start) / 3_600_000)).toEqual([8, 7, 8]);
    const weekly: CalendarForm = { timeZone: 'Europe/Lisbon', schedules: [schedule({ start: '2024-10-21T09:00', end: '2024-10-21T10:00', repeat: 'weekly', weekdays: ['MO'] })] };
    expect(utc(weekly, '2024-10-20T00:00:00Z', 2)).toEqual(['2024-10-21T08:00:00.000Z', '2024-10-28T09:00:00.000Z']);
  });

  it('merges several schedules in time order', () => {
    const form: CalendarForm = {
      timeZone: 'UTC',
      schedules: [
        schedule({ start: '2024-01-02T08:00', end: '2024-01-02T09:00', repeat: 'daily' }),
        schedule({ start: '2024-01-01T12:00', end: '2024-01-01T13:00' }),
      ],
    };
    expect(walls(form, '2024-01-01T00:00:00Z', 3).map((w) => w.slice(0, 16))).toEqual(['2024-01-01T12:00', '2024-01-02T08:00', '2024-01-03T08:00']);
  });
});

describe('editor schema', () => {
  it('accepts a valid form and a read-only calendar (form null)', () => {
    expect(calendarEditorSchema.safeParse({ name: ' Work ', form: null })).toEqual({ success: true, data: { name: 'Work', form: null } });
    expect(calendarFormSchema.safeParse({ timeZone: 'Europe/Lisbon', schedules: [schedule({ repeat: 'weekly', weekdays: ['MO'] })] }).success).toBe(true);
  });

  it('puts each problem on its schedule field', () => {
    const paths = (value: unknown) => {
      const r = calendarEditorSchema.safeParse(value);
      return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
    };
    expect(paths({ name: '', form: { timeZone: 'Nowhere/City', schedules: [] } })).toEqual(['name', 'form.timeZone', 'form.schedules']);
    expect(paths({
      name: 'a',
      form: {
        timeZone: 'UTC',
        schedules: [
          schedule({ end: '2024-01-01T07:00', repeat: 'weekly', expiry: 'count', count: 0 }),
          schedule({ start: '2024-02-30T08:00', repeat: 'daily', expiry: 'until', until: '2023-12-31' }),
          schedule({ repeat: 'daily', expiry: 'until', until: '2023-12-31' }),
        ],
      },
    })).toEqual(['form.schedules.0.end', 'form.schedules.0.weekdays', 'form.schedules.0.count', 'form.schedules.1.start', 'form.schedules.2.until']);
  });
});
