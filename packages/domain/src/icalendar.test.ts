import { describe, expect, it } from 'vitest';
import { CALENDAR_DATA_MAX_BYTES, encodeCalendarData, icalendarProblem, readCalendarData } from './icalendar.ts';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

const WEEKLY = [
  'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Tarkan//KoreAG//EN',
  'BEGIN:VEVENT', 'DTSTART;TZID=America/Sao_Paulo:20240101T080000', 'DTEND;TZID=America/Sao_Paulo:20240101T180000',
  'RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', 'SUMMARY:Horário comercial ☕', 'END:VEVENT',
  'END:VCALENDAR', '',
].join('\r\n');

describe('iCalendar structure', () => {
  it('accepts calendars as Tarkan and traccar-web build them, with CRLF or LF, folded lines and quoted parameters', () => {
    expect(icalendarProblem(WEEKLY)).toBeNull();
    expect(icalendarProblem(WEEKLY.replace(/\r\n/g, '\n'))).toBeNull();
    expect(icalendarProblem('\uFEFFbegin:vcalendar\nBEGIN:VEVENT\nDESCRIPTION:a long\n  folded line\nATTENDEE;CN="Ana: driver";ROLE=REQ-PARTICIPANT:mailto:a@b.c\nEND:VEVENT\nend:vcalendar')).toBeNull();
    expect(icalendarProblem('BEGIN:VCALENDAR\n\nEND:VCALENDAR\n\n')).toBeNull();
  });

  it('says what is wrong with anything else', () => {
    expect(icalendarProblem('')).toBe('must be an iCalendar object starting with BEGIN:VCALENDAR');
    expect(icalendarProblem('BEGIN:VEVENT\nEND:VEVENT')).toBe('must be an iCalendar object starting with BEGIN:VCALENDAR');
    expect(icalendarProblem('BEGIN:VCALENDAR\nnot a property\nEND:VCALENDAR')).toBe('must be iCalendar content lines NAME:value (line 2 is not one)');
    expect(icalendarProblem('BEGIN:VCALENDAR\nBEGIN:VEVENT\nEND:VCALENDAR')).toBe('must close its blocks in order (line 3 ends VCALENDAR inside VEVENT)');
    expect(icalendarProblem('BEGIN:VCALENDAR\nBEGIN:VEVENT\nEND:VEVENT')).toBe('must end with END:VCALENDAR (VCALENDAR is never closed)');
    expect(icalendarProblem('BEGIN:VCALENDAR\nEND:VCALENDAR\nBEGIN:VCALENDAR\nEND:VCALENDAR')).toBe('must hold one iCalendar object (line 3 comes after END:VCALENDAR)');
    expect(icalendarProblem('BEGIN:VCALENDAR\nEND:VCALENDAR\nEND:VCALENDAR')).toBe('must hold one iCalendar object (line 3 comes after END:VCALENDAR)');
  });
});

describe('calendar data (base64)', () => {
  it('decodes base64 UTF-8 iCalendar text, with or without padding and line breaks, and encodes it back', () => {
    expect(readCalendarData(b64(WEEKLY))).toEqual({ ok: true, text: WEEKLY });
    expect(readCalendarData(b64(WEEKLY).replace(/=+$/, ''))).toEqual({ ok: true, text: WEEKLY });
    expect(readCalendarData(b64(WEEKLY).replace(/(.{76})/g, '$1\r\n'))).toEqual({ ok: true, text: WEEKLY });
    expect(encodeCalendarData(WEEKLY)).toBe(b64(WEEKLY));
    const big = `BEGIN:VCALENDAR\n${'X-PAD:' + 'é'.repeat(60_000) + '\n'}END:VCALENDAR\n`;
    expect(encodeCalendarData(big)).toBe(b64(big));
  });

  it('refuses what is not base64, not UTF-8, holds control characters, is too large or is not iCalendar', () => {
    expect(readCalendarData('BEGIN:VCALENDAR!')).toEqual({ ok: false, problem: 'must be base64 text (A-Z, a-z, 0-9, +, /, = padding)' });
    expect(readCalendarData(Buffer.from([0x42, 0xff, 0xfe]).toString('base64'))).toEqual({ ok: false, problem: 'must be UTF-8 iCalendar text once decoded' });
    expect(readCalendarData(b64('BEGIN:VCALENDAR\nX:\u0000\nEND:VCALENDAR'))).toEqual({ ok: false, problem: 'must be iCalendar text without control characters' });
    const huge = `BEGIN:VCALENDAR\nX:${'a'.repeat(CALENDAR_DATA_MAX_BYTES)}\nEND:VCALENDAR`;
    expect(readCalendarData(b64(huge))).toEqual({ ok: false, problem: 'too large, at most 512 KB of iCalendar text' });
    expect(readCalendarData(b64('hello'))).toEqual({ ok: false, problem: 'must be an iCalendar object starting with BEGIN:VCALENDAR' });
  });
});
