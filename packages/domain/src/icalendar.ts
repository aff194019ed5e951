// A calendar's `data` as the Traccar API carries it: iCalendar text (RFC 5545) encoded in
// base64. Traccar parses it with ical4j when it is stored and answers 400 when that fails;
// here the structure is checked the same way before anything is stored — content lines of
// the form NAME[;PARAM=...]:value after unfolding, BEGIN/END blocks nested properly, one
// VCALENDAR around everything. What the events mean (periods, recurrence rules) is read by
// the calendar engine, not here. Works in browsers too (atob/btoa, TextEncoder).

/** Largest iCalendar text a calendar may hold (a year of holidays is a few tens of KB). */
export const CALENDAR_DATA_MAX_BYTES = 512 * 1024;

export type CalendarDataReading = { ok: true; text: string } | { ok: false; problem: string };

const CONTENT_LINE = /^[A-Za-z0-9-]+(?:;[A-Za-z0-9-]+=(?:"[^"]*"|[^";:,]*)(?:,(?:"[^"]*"|[^";:,]*))*)*:/;

/** Why `text` is not an iCalendar object, or null (message tails: "must be ...", never holding " - "). */
export function icalendarProblem(text: string): string | null {
  // Lines end in CRLF by the RFC; LF alone is common in files written by hand. A line break
  // followed by a space or a tab continues the previous line (folding).
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/\n[ \t]/g, '')
    .split('\n')
    .map((line, i) => ({ line, number: i + 1 }))
    .filter((l) => l.line.trim() !== '');
  const first = lines[0];
  if (!first || !/^BEGIN:VCALENDAR$/i.test(first.line.trim())) return 'must be an iCalendar object starting with BEGIN:VCALENDAR';
  const open: string[] = [];
  for (const [i, { line, number }] of lines.entries()) {
    if (i > 0 && open.length === 0) return `must hold one iCalendar object (line ${number} comes after END:VCALENDAR)`;
    if (!CONTENT_LINE.test(line)) return `must be iCalendar content lines NAME:value (line ${number} is not one)`;
    const block = /^(BEGIN|END):(.*)$/i.exec(line);
    if (!block) continue;
    const name = block[2]!.trim().toUpperCase();
    if (block[1]!.toUpperCase() === 'BEGIN') open.push(name);
    else if (open[open.length - 1] === name) open.pop();
    else return `must close its blocks in order (line ${number} ends ${name} inside ${open[open.length - 1] ?? 'nothing'})`;
  }
  if (open.length > 0) return `must end with END:VCALENDAR (${open[open.length - 1]} is never closed)`;
  return null;
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return true;
  }
  return false;
}

/** Reads base64 iCalendar data: decoded, UTF-8, within the size limit and well formed. */
export function readCalendarData(base64: string): CalendarDataReading {
  let binary: string;
  try {
    binary = atob(base64);
  } catch {
    return { ok: false, problem: 'must be base64 text (A-Z, a-z, 0-9, +, /, = padding)' };
  }
  if (binary.length > CALENDAR_DATA_MAX_BYTES) return { ok: false, problem: `too large, at most ${CALENDAR_DATA_MAX_BYTES / 1024} KB of iCalendar text` };
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, problem: 'must be UTF-8 iCalendar text once decoded' };
  }
  // RFC 5545 allows no control character but tab, CR and LF (and PostgreSQL cannot store NUL).
  if (hasControlCharacter(text)) return { ok: false, problem: 'must be iCalendar text without control characters' };
  const problem = icalendarProblem(text);
  return problem ? { ok: false, problem } : { ok: true, text };
}

/** The base64 form of iCalendar text, as calendars carry it in JSON. */
export function encodeCalendarData(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
