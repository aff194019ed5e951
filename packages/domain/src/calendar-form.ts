// The calendar editor's form and its iCalendar text, both ways, and the occurrences it yields.
// A calendar is stored as Traccar stores it (spec §3, tarkan-reference §3.13.11): one VEVENT per
// schedule with DTSTART;TZID=<zone> and DTEND;TZID=<zone> as wall times in the user's zone and,
// when it repeats, an RRULE (FREQ=DAILY | WEEKLY;BYDAY=… | MONTHLY;BYMONTHDAY=<start day> |
// YEARLY, then COUNT=n or UNTIL=<UTC instant>). Traccar reads this with ical4j; traccar-web and
// Tarkan write the same shape. Text the form cannot show exactly (other properties, other rule
// parts, several zones) is reported as not editable, so the editor never rewrites it.
//
// Wall times are strings "YYYY-MM-DDTHH:mm" (a datetime-local value); instants are epoch ms.
// Recurrence follows RFC 5545: invalid dates are skipped (a monthly event on the 31st has no
// April occurrence), a wall time in a DST gap is taken with the offset before the gap, an
// ambiguous one (clocks going back) is the first of the two.
import { z } from './zod.ts';
import { requiredText } from './schemas/fields.ts';

export const REPEATS = ['none', 'daily', 'weekly', 'monthly', 'yearly'] as const;
export type Repeat = (typeof REPEATS)[number];
export const EXPIRIES = ['never', 'count', 'until'] as const;
export type Expiry = (typeof EXPIRIES)[number];
/** RFC 5545 weekday codes, Sunday first (as Date#getUTCDay counts). */
export const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface CalendarSchedule {
  /** Wall time "YYYY-MM-DDTHH:mm" in the calendar's zone. */
  start: string;
  end: string;
  repeat: Repeat;
  /** Weekly only: the days it happens on. */
  weekdays: Weekday[];
  expiry: Expiry;
  /** expiry 'count': how many occurrences in all. */
  count: number;
  /** expiry 'until': the last day ("YYYY-MM-DD", inclusive). */
  until: string;
}

export interface CalendarForm {
  /** IANA zone the wall times are in. */
  timeZone: string;
  schedules: CalendarSchedule[];
}

export const MAX_COUNT = 1000;
export const PRODID = '-//Rastro//Calendar//EN';

const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

interface Civil {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function readWall(text: string): Civil | null {
  const m = WALL.exec(text);
  if (!m) return null;
  const c = { year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: +m[4]!, minute: +m[5]!, second: 0 };
  return sameCivil(c) ? c : null;
}

function readDay(text: string): Civil | null {
  const m = DAY.exec(text);
  if (!m) return null;
  const c = { year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: 0, minute: 0, second: 0 };
  return sameCivil(c) ? c : null;
}

/** False for impossible dates (31 April) and times, which Date.UTC would roll over. */
function sameCivil(c: Civil): boolean {
  if (c.hour > 23 || c.minute > 59) return false;
  const d = new Date(Date.UTC(c.year, c.month - 1, c.day));
  return d.getUTCFullYear() === c.year && d.getUTCMonth() === c.month - 1 && d.getUTCDate() === c.day;
}

/** Wall time as if it were UTC: convenient for civil arithmetic. */
const civilMs = (c: Civil) => Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second);

function fromCivilMs(ms: number): Civil {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() };
}

export const isTimeZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

const formats = new Map<string, Intl.DateTimeFormat>();
function zoneFormat(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formats.set(zone, f);
  }
  return f;
}

/** The wall time in `zone` at an instant. */
export function wallAt(instant: number, zone: string): Civil {
  const parts: Record<string, number> = {};
  for (const p of zoneFormat(zone).formatToParts(new Date(instant))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour! % 24, minute: parts.minute!, second: parts.second! };
}

/** UTC offset (ms, east positive) of `zone` at an instant. */
const offsetAt = (instant: number, zone: string) => civilMs(wallAt(instant, zone)) - Math.floor(instant / 1000) * 1000;

/** The instant of a wall time in `zone` (RFC 5545 §3.3.5 for gaps and overlaps). */
export function instantOf(wall: Civil, zone: string): number {
  const asUtc = civilMs(wall);
  // Offsets on either side of any transition near this wall time.
  const before = offsetAt(asUtc - 86_400_000, zone);
  const after = offsetAt(asUtc + 86_400_000, zone);
  const candidates = [asUtc - before, asUtc - after].filter((t) => civilMs(wallAt(t, zone)) === asUtc).sort((a, b) => a - b);
  // None fits: the wall time lies in a gap; read it with the offset before the gap.
  return candidates[0] ?? asUtc - before;
}

const wallText = (c: Civil) => `${pad(c.year, 4)}-${pad(c.month)}-${pad(c.day)}T${pad(c.hour)}:${pad(c.minute)}`;
const icsLocal = (c: Civil) => `${pad(c.year, 4)}${pad(c.month)}${pad(c.day)}T${pad(c.hour)}${pad(c.minute)}${pad(c.second)}`;
const icsUtc = (ms: number) => `${icsLocal(fromCivilMs(ms))}Z`;

// ---------- form → iCalendar ----------

function rrule(s: CalendarSchedule, start: Civil, zone: string): string | null {
  if (s.repeat === 'none') return null;
  const parts = [`FREQ=${s.repeat.toUpperCase()}`];
  if (s.repeat === 'weekly') parts.push(`BYDAY=${WEEKDAYS.filter((d) => s.weekdays.includes(d)).join(',')}`);
  if (s.repeat === 'monthly') parts.push(`BYMONTHDAY=${start.day}`);
  if (s.expiry === 'count') parts.push(`COUNT=${s.count}`);
  if (s.expiry === 'until') {
    // With a zoned DTSTART the RFC wants UNTIL in UTC: the last second of that day in the zone.
    const day = readDay(s.until)!;
    parts.push(`UNTIL=${icsUtc(instantOf({ ...day, hour: 23, minute: 59, second: 59 }, zone))}`);
  }
  return `RRULE:${parts.join(';')}`;
}

/** The iCalendar text of a valid form (check it with calendarFormSchema first). */
export function formatCalendar(form: CalendarForm, uid = (i: number) => `rastro-${i + 1}`): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${PRODID}`];
  form.schedules.forEach((s, i) => {
    const start = readWall(s.start)!;
    const end = readWall(s.end)!;
    lines.push('BEGIN:VEVENT', `UID:${uid(i)}`, `DTSTART;TZID=${form.timeZone}:${icsLocal(start)}`, `DTEND;TZID=${form.timeZone}:${icsLocal(end)}`);
    const rule = rrule(s, start, form.timeZone);
    if (rule) lines.push(rule);
    lines.push('END:VEVENT');
  });
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}

// ---------- iCalendar → form ----------

export type CalendarReading = { editable: true; form: CalendarForm } | { editable: false; reason: string };

/** Properties the form reproduces, or may drop without changing what the calendar means. */
const CALENDAR_PROPS = new Set(['VERSION', 'PRODID', 'CALSCALE', 'METHOD']);
const EVENT_PROPS = new Set(['UID', 'DTSTART', 'DTEND', 'RRULE', 'SUMMARY', 'DTSTAMP', 'SEQUENCE', 'CREATED', 'LAST-MODIFIED']);

interface Line {
  name: string;
  params: Record<string, string>;
  value: string;
}

function contentLines(text: string): Line[] {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').replace(/\n[ \t]/g, '').split('\n').filter((l) => l.trim() !== '').map((raw) => {
    const colon = raw.search(/:(?=(?:[^"]*"[^"]*")*[^"]*$)/);
    const head = raw.slice(0, colon);
    const [name, ...params] = head.split(';');
    return {
      name: name!.toUpperCase(),
      params: Object.fromEntries(params.map((p) => { const [k, v = ''] = p.split('='); return [k!.toUpperCase(), v.replace(/^"|"$/g, '')]; })),
      value: raw.slice(colon + 1).trim(),
    };
  });
}

const LOCAL_ICS = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})$/;
const UTC_ICS = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

function readIcsTime(line: Line): { civil: Civil; zone: string } | string {
  const utc = UTC_ICS.exec(line.value);
  const local = LOCAL_ICS.exec(line.value);
  const m = utc ?? local;
  if (!m || (line.params.VALUE && line.params.VALUE !== 'DATE-TIME')) return `${line.name} is not a date-time`;
  if (!utc && !line.params.TZID) return `${line.name} has no time zone (floating time)`;
  const zone = utc ? 'UTC' : line.params.TZID!;
  if (!isTimeZone(zone)) return `time zone ${zone} is unknown`;
  const civil = { year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: +m[4]!, minute: +m[5]!, second: +m[6]! };
  if (!sameCivil(civil)) return `${line.name} is not a valid date`;
  if (civil.second !== 0) return `${line.name} has seconds`;
  return { civil, zone };
}

function readRule(value: string, start: Civil, zone: string): Pick<CalendarSchedule, 'repeat' | 'weekdays' | 'expiry' | 'count' | 'until'> | string {
  const parts = new Map<string, string>();
  for (const part of value.split(';')) {
    const [k, v] = part.split('=');
    if (!k || v === undefined || parts.has(k.toUpperCase())) return `rule part ${part} is not understood`;
    parts.set(k.toUpperCase(), v.toUpperCase());
  }
  const freq = parts.get('FREQ');
  const repeat = REPEATS.find((r) => r !== 'none' && r.toUpperCase() === freq);
  if (!repeat) return `repeat ${freq ?? '(none)'} is not one of daily, weekly, monthly, yearly`;
  parts.delete('FREQ');
  if (parts.get('INTERVAL') === '1') parts.delete('INTERVAL');
  let weekdays: Weekday[] = [];
  if (repeat === 'weekly') {
    const days = (parts.get('BYDAY') ?? WEEKDAYS[new Date(civilMs(start)).getUTCDay()]!).split(',');
    if (!days.every((d) => (WEEKDAYS as readonly string[]).includes(d))) return `weekdays ${parts.get('BYDAY')} are not plain weekdays`;
    weekdays = WEEKDAYS.filter((d) => days.includes(d));
    parts.delete('BYDAY');
  }
  if (repeat === 'monthly') {
    const byDay = parts.get('BYMONTHDAY');
    if (byDay !== undefined && byDay !== String(start.day)) return 'the day of the month differs from the start';
    parts.delete('BYMONTHDAY');
  }
  let expiry: Expiry = 'never';
  let count = 1;
  let until = '';
  const countText = parts.get('COUNT');
  const untilText = parts.get('UNTIL');
  parts.delete('COUNT');
  parts.delete('UNTIL');
  if (countText !== undefined && untilText !== undefined) return 'COUNT and UNTIL together';
  if (countText !== undefined) {
    count = Number(countText);
    if (!/^\d+$/.test(countText) || count < 1 || count > MAX_COUNT) return `count ${countText} is out of range`;
    expiry = 'count';
  }
  if (untilText !== undefined) {
    const m = UTC_ICS.exec(untilText) ?? LOCAL_ICS.exec(untilText);
    const dateOnly = /^(\d{4})(\d{2})(\d{2})$/.exec(untilText);
    let day: Civil;
    if (m) {
      const civil = { year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: +m[4]!, minute: +m[5]!, second: +m[6]! };
      if (!sameCivil(civil)) return 'UNTIL is not a valid date';
      day = UTC_ICS.test(untilText) ? wallAt(civilMs(civil), zone) : civil;
    } else if (dateOnly) {
      day = { year: +dateOnly[1]!, month: +dateOnly[2]!, day: +dateOnly[3]!, hour: 0, minute: 0, second: 0 };
      if (!sameCivil(day)) return 'UNTIL is not a valid date';
    } else return 'UNTIL is not a date';
    // The form can only say "until the end of a day": any other moment would change its meaning.
    if (!(day.hour === 23 && day.minute === 59 && day.second === 59) && !dateOnly) return 'UNTIL is not the end of a day';
    until = wallText(day).slice(0, 10);
    expiry = 'until';
  }
  if (parts.size > 0) return `rule parts ${[...parts.keys()].join(', ')} are not shown by the editor`;
  return { repeat, weekdays, expiry, count, until };
}

/** Reads iCalendar text into the form, or says why the form cannot show it. */
export function readCalendar(text: string): CalendarReading {
  const lines = contentLines(text);
  const schedules: CalendarSchedule[] = [];
  const zones = new Set<string>();
  let stack: string[] = [];
  let event: Line[] | null = null;
  for (const line of lines) {
    if (line.name === 'BEGIN') {
      stack = [...stack, line.value.toUpperCase()];
      if (stack.join('/') === 'VCALENDAR/VEVENT') event = [];
      else if (stack[1] !== 'VTIMEZONE' && stack.length > 1) return { editable: false, reason: `${line.value} blocks are not shown by the editor` };
      continue;
    }
    if (line.name === 'END') {
      if (stack.join('/') === 'VCALENDAR/VEVENT' && event) {
        const schedule = readEvent(event);
        if (typeof schedule === 'string') return { editable: false, reason: schedule };
        zones.add(schedule.zone);
        schedules.push(schedule.schedule);
        event = null;
      }
      stack = stack.slice(0, -1);
      continue;
    }
    if (event) event.push(line);
    // VTIMEZONE blocks only describe the zone the TZID names; the zone database is used instead.
    else if (stack.length === 1 && !CALENDAR_PROPS.has(line.name)) return { editable: false, reason: `property ${line.name} is not shown by the editor` };
  }
  if (schedules.length === 0) return { editable: false, reason: 'it has no events' };
  if (zones.size > 1) return { editable: false, reason: 'its events use several time zones' };
  return { editable: true, form: { timeZone: [...zones][0]!, schedules } };
}

function readEvent(lines: Line[]): { schedule: CalendarSchedule; zone: string } | string {
  const one = (name: string) => lines.filter((l) => l.name === name);
  for (const l of lines) if (!EVENT_PROPS.has(l.name)) return `property ${l.name} is not shown by the editor`;
  if (one('DTSTART').length !== 1 || one('DTEND').length !== 1 || one('RRULE').length > 1) return 'an event needs one start and one end';
  const start = readIcsTime(one('DTSTART')[0]!);
  const end = readIcsTime(one('DTEND')[0]!);
  if (typeof start === 'string') return start;
  if (typeof end === 'string') return end;
  if (start.zone !== end.zone) return 'an event starts and ends in different time zones';
  if (civilMs(end.civil) <= civilMs(start.civil)) return 'an event ends before it starts';
  const rule = one('RRULE')[0];
  const repeat = rule ? readRule(rule.value, start.civil, start.zone) : { repeat: 'none' as const, weekdays: [], expiry: 'never' as const, count: 1, until: '' };
  if (typeof repeat === 'string') return repeat;
  return { schedule: { start: wallText(start.civil), end: wallText(end.civil), ...repeat }, zone: start.zone };
}

// ---------- occurrences ----------

export interface Occurrence {
  start: number;
  end: number;
}

/** Wall-time starts of a schedule, in order (as civil ms), no more than `limit` steps. */
function* starts(s: CalendarSchedule, limit: number): Generator<Civil> {
  const first = readWall(s.start)!;
  const until = s.expiry === 'until' ? civilMs({ ...readDay(s.until)!, hour: 23, minute: 59, second: 59 }) : Infinity;
  let produced = 0;
  for (let step = 0; step < limit; step++) {
    let c: Civil | null;
    if (s.repeat === 'none') c = step === 0 ? first : null;
    else if (s.repeat === 'daily' || s.repeat === 'weekly') {
      c = fromCivilMs(civilMs(first) + step * 86_400_000);
      if (s.repeat === 'weekly' && !s.weekdays.includes(WEEKDAYS[new Date(civilMs(c)).getUTCDay()]!)) continue;
    } else if (s.repeat === 'monthly') {
      const month = first.month - 1 + step;
      c = { ...first, year: first.year + Math.floor(month / 12), month: (month % 12) + 1 };
      if (!sameCivil(c)) continue;
    } else {
      c = { ...first, year: first.year + step };
      if (!sameCivil(c)) continue;
    }
    if (!c || civilMs(c) > until) return;
    yield c;
    produced++;
    if (s.expiry === 'count' && produced >= s.count) return;
  }
}

/** The next `n` occurrences of a valid form that have not ended at `from`, earliest first. */
export function nextOccurrences(form: CalendarForm, from: number, n = 5): Occurrence[] {
  const found: Occurrence[] = [];
  for (const s of form.schedules) {
    const length = civilMs(readWall(s.end)!) - civilMs(readWall(s.start)!);
    let kept = 0;
    // 40 years of days at most: a bound for calendars whose occurrences all lie in the past.
    for (const c of starts(s, 366 * 40)) {
      const occurrence = { start: instantOf(c, form.timeZone), end: instantOf(fromCivilMs(civilMs(c) + length), form.timeZone) };
      if (occurrence.end <= from) continue;
      found.push(occurrence);
      if (++kept >= n) break;
    }
  }
  return found.sort((a, b) => a.start - b.start).slice(0, n);
}

// ---------- the editor's schema ----------

const wall = z.string().refine((v) => readWall(v) !== null, { message: 'must be a date and time' });

export const calendarScheduleSchema = z.object({
  start: wall,
  end: wall,
  repeat: z.enum(REPEATS),
  weekdays: z.array(z.enum(WEEKDAYS)),
  expiry: z.enum(EXPIRIES),
  count: z.number().int({ message: 'must be a whole number' }),
  until: z.string(),
}).superRefine((s, ctx) => {
  const start = readWall(s.start);
  const end = readWall(s.end);
  if (start && end && civilMs(end) <= civilMs(start)) ctx.addIssue({ code: 'custom', path: ['end'], message: 'must be after the start' });
  if (s.repeat === 'weekly' && s.weekdays.length === 0) ctx.addIssue({ code: 'custom', path: ['weekdays'], message: 'must hold at least one weekday' });
  if (s.repeat === 'none') return;
  if (s.expiry === 'count' && (s.count < 1 || s.count > MAX_COUNT)) {
    ctx.addIssue({ code: 'custom', path: ['count'], message: `must be a whole number from 1 to ${MAX_COUNT}` });
  }
  if (s.expiry === 'until') {
    const until = readDay(s.until);
    if (!until) ctx.addIssue({ code: 'custom', path: ['until'], message: 'must be a date' });
    else if (start && civilMs(until) < civilMs({ ...start, hour: 0, minute: 0 })) ctx.addIssue({ code: 'custom', path: ['until'], message: 'must not be before the start' });
  }
});

export const calendarFormSchema = z.object({
  timeZone: z.string().refine(isTimeZone, { message: 'must be a time zone name' }),
  schedules: z.array(calendarScheduleSchema).min(1, { message: 'must hold at least one schedule' }),
});

/**
 * The calendar editor: a name and, when the stored text is editable, the form. `form` null keeps
 * the stored text untouched (a calendar the form cannot show is saved with its own data).
 */
export const calendarEditorSchema = z.object({
  name: requiredText('name', 'Name'),
  form: calendarFormSchema.nullable(),
});

/** A new schedule: the next whole hour for one hour, not repeating. */
export function newSchedule(now: number, zone: string): CalendarSchedule {
  const c = wallAt(now + 3_600_000, zone);
  const start = { ...c, minute: 0, second: 0 };
  const end = fromCivilMs(civilMs(start) + 3_600_000);
  return {
    start: wallText(start), end: wallText(end), repeat: 'none', weekdays: [WEEKDAYS[new Date(civilMs(start)).getUTCDay()]!],
    expiry: 'never', count: 10, until: wallText(fromCivilMs(civilMs(start) + 30 * 86_400_000)).slice(0, 10),
  };
}

/** The wall time "YYYY-MM-DDTHH:mm" of an instant in a zone (for showing occurrences). */
export const wallTextAt = (instant: number, zone: string) => wallText(wallAt(instant, zone));
