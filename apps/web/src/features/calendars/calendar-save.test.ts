// What the editor sends: a new or changed form written anew as iCalendar, an unchanged or
// read-only calendar with its stored data byte for byte (Tarkan's VTIMEZONE, UIDs, comments kept).
import { describe, expect, it } from 'vitest';
import { readCalendarData } from '@rastro/domain/icalendar';
import type { User } from '@rastro/domain/entities';
import { calendarToSave, draftOf } from './calendar-editor.tsx';
import { calendarAbilities, calendarZone, nextStart } from './calendar-rules.ts';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const TARKAN = [
  'BEGIN:VCALENDAR', 'PRODID:-//Tarkan//KoreAG//EN', 'VERSION:2.0',
  'BEGIN:VTIMEZONE', 'TZID:America/Sao_Paulo', 'BEGIN:STANDARD', 'TZOFFSETFROM:-0300', 'TZOFFSETTO:-0300', 'DTSTART:19700101T000000', 'END:STANDARD', 'END:VTIMEZONE',
  'BEGIN:VEVENT', 'UID:abc', 'DTSTART;TZID=America/Sao_Paulo:20240105T080000', 'DTEND;TZID=America/Sao_Paulo:20240105T120000', 'RRULE:FREQ=WEEKLY;BYDAY=FR', 'END:VEVENT',
  'END:VCALENDAR', '',
].join('\r\n');
const stored = { id: 4, name: 'Sextas', data: b64(TARKAN), attributes: { a: 1 } };

describe('saving a calendar', () => {
  it('keeps an unchanged calendar as stored, and rewrites it once its schedules change', () => {
    const draft = draftOf(stored, 'Europe/Lisbon', 0);
    expect(draft.form?.timeZone).toBe('America/Sao_Paulo');
    expect(calendarToSave(draft, 'Sextas!')).toEqual({ id: 4, name: 'Sextas!', data: stored.data, attributes: { a: 1 } });
    const changed = { ...draft, form: { ...draft.form!, schedules: [{ ...draft.form!.schedules[0]!, weekdays: ['MO' as const, 'FR' as const] }] } };
    const text = readCalendarData(calendarToSave(changed, 'Sextas').data);
    expect(text.ok && text.text).toContain('DTSTART;TZID=America/Sao_Paulo:20240105T080000\r\nDTEND;TZID=America/Sao_Paulo:20240105T120000\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,FR\r\n');
  });

  it('writes a new calendar in the user zone, starting at the next whole hour', () => {
    const draft = draftOf(null, 'Europe/Lisbon', Date.parse('2024-07-01T10:20:00Z'));
    expect(draft.form).toEqual({ timeZone: 'Europe/Lisbon', schedules: [expect.objectContaining({ start: '2024-07-01T12:00', end: '2024-07-01T13:00', repeat: 'none' })] });
    const text = readCalendarData(calendarToSave(draft, 'Novo').data);
    expect(text.ok && text.text).toContain('DTSTART;TZID=Europe/Lisbon:20240701T120000');
  });
});

describe('calendar rules', () => {
  it('picks the user zone, then the server one, then the browser one, skipping unknown names', () => {
    expect(calendarZone({ timezone: 'Europe/Lisbon' }, { timezone: 'America/Sao_Paulo' })).toBe('Europe/Lisbon');
    expect(calendarZone({ timezone: 'Mars/Base' }, { timezone: 'America/Sao_Paulo' })).toBe('America/Sao_Paulo');
    expect(calendarZone(null, null)).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('says when the next occurrence starts, none when all are past, custom when unreadable', () => {
    expect(nextStart(stored, Date.parse('2024-01-06T00:00:00Z'))).toBe(Date.parse('2024-01-12T11:00:00Z'));
    expect(nextStart({ data: b64(TARKAN.replace('RRULE:FREQ=WEEKLY;BYDAY=FR\r\n', '')) }, Date.parse('2024-02-01T00:00:00Z'))).toBeNull();
    expect(nextStart({ data: b64(TARKAN.replace('BYDAY=FR', 'BYDAY=FR;BYSETPOS=1')) }, 0)).toBe('custom');
  });

  it('lets a read-only account see but not change calendars', () => {
    const me = { administrator: false, readonly: true, attributes: {} } as unknown as User;
    expect(calendarAbilities(me, { plus: true })).toEqual({ list: true, add: false, edit: false, remove: false });
    expect(calendarAbilities({ ...me, readonly: false }, { plus: true })).toEqual({ list: true, add: true, edit: true, remove: true });
  });
});
