// HOOK for calendars (Traccar tc_calendars, iCalendar data): they are stored
// (calendars/calendar-resource.ts, table `calendars`, 'calendar' changes published), but no
// engine reads them yet. A geofence with a `calendarId` raises enter/exit events only inside
// its calendar's periods (reference A.3 Geofence). Until a CalendarCheck exists, the events
// engine uses `noCalendars`, which lets every moment through — the same as a geofence without
// a calendar. The check (calendars parsed once, kept in memory, refreshed on change) is given
// to the engine (engine.ts: `EventsEngine.calendars`); nothing else changes.

/** Is `time` (epoch ms) inside calendar `calendarId`? */
export type CalendarCheck = (calendarId: number, time: number) => boolean;

export const noCalendars: CalendarCheck = () => true;
