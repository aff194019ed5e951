// Differences from Traccar's recorded answers that we accept, each with its reason. Anything
// the differential test finds that is not listed here fails it; an entry that no longer
// matches anything fails too, so the list stays true. Patterns (deliberate-match.ts): `*` in a
// request name is any text; in a path `*` is one step and `**` anything, so `$.*` with kind
// `extra` lets the top-level object carry any extra key, and `$[*].x` is `x` in every element.
//
// Only differences with a reason that holds belong here: data that differs by set-up or
// environment (not by behaviour), Rastro's product extension (extra keys Traccar's clients
// ignore), and places where Traccar's answer is an accident we do not copy. A missing key, a
// wrong value, type or status is a defect to fix, not an entry.
import type { DiffKind } from './compare.ts';

export interface Deliberate {
  /** The request's name in the fixture (a glob: `*` is any text). */
  request: string;
  /** JSON path pattern (`$[*].attributes.x`; `*` one step, `**` anything). */
  path: string;
  kind: DiffKind;
  reason: string;
}

const SESSION_OF_ADMIN = ['POST /api/session', 'GET /api/session'];
const STORAGE_SPACE = 'the disk space of the machine each server ran on: Traccar lists [usable, total] of every filesystem of its host over 1 GB, '
  + 'ours of the disk holding the data directory (server-info/storage-space.ts); free bytes change from run to run';
const HOURS_FROM_FIRST = 'the engine-hours counter starts at 0 on a device\'s first position that reports ignition '
  + '(processing/steps/engine-hours.ts, issue 11); Traccar leaves `hours` unset until the counter is above 0';
const SUMMARY_HOURS = 'a period that starts before the engine first ran has no start counter in Traccar (hours unset until above 0), '
  + 'so Traccar reports endHours, engineHours and averageSpeed (distance / engine hours) as 0; ours has the counter at both ends '
  + '(it starts at 0, processing/steps/engine-hours.ts, issue 11) and reports the engine time and the average speed';
const ADMIN_SETUP = 'our administrator is made at first start (rastro.ts: name "Administrator", login "admin", no user limit); Traccar\'s was registered through its form';

export const DELIBERATE: readonly Deliberate[] = [
  // Set-up and environment.
  { request: 'GET /api/server', path: '$.version', kind: 'value', reason: 'the product version: Rastro\'s, not Traccar\'s build' },
  { request: 'GET /api/server', path: '$.latitude', kind: 'value', reason: 'the default map centre is São Paulo (rastro.ts), where the demo fleet drives and most customers are' },
  { request: 'GET /api/server', path: '$.longitude', kind: 'value', reason: 'the default map centre is São Paulo (rastro.ts), where the demo fleet drives and most customers are' },
  { request: 'GET /api/server', path: '$.zoom', kind: 'value', reason: 'the default map zoom goes with the São Paulo centre (rastro.ts)' },
  { request: 'GET /api/server', path: '$.geocoderEnabled', kind: 'value', reason: 'Rastro has no reverse geocoder; saying true would make clients wait for addresses that never come' },
  { request: 'GET /api/server', path: '$.storageSpace[*]', kind: 'value', reason: STORAGE_SPACE },
  { request: 'GET /api/server', path: '$.storageSpace[*]', kind: 'missing', reason: STORAGE_SPACE },
  // Time zones are compared by the zone each name stands for (compare.ts: Java's aliases are no difference).
  { request: 'GET /api/server/timezones', path: '$[=America/Coyhaique]', kind: 'extra', reason: 'a zone made in 2025 (tz 2025b): our runtime\'s zone database has it, the Java one Traccar ran with does not yet' },
  { request: 'GET /api/server/timezones', path: '$[=SystemV/*]', kind: 'missing', reason: 'the SystemV zones left the IANA tz database in 2020 (2020b); Java still lists them, we offer only current zones (server-info/time-zones.ts)' },
  ...SESSION_OF_ADMIN.flatMap((request): Deliberate[] => [
    { request, path: '$.name', kind: 'value', reason: ADMIN_SETUP },
    { request, path: '$.login', kind: 'type', reason: ADMIN_SETUP },
    { request, path: '$.userLimit', kind: 'value', reason: ADMIN_SETUP },
  ]),
  { request: 'GET /api/users', path: '$[id=1].name', kind: 'value', reason: ADMIN_SETUP },
  { request: 'GET /api/users', path: '$[id=1].login', kind: 'type', reason: ADMIN_SETUP },
  { request: 'GET /api/users', path: '$[id=1].userLimit', kind: 'value', reason: ADMIN_SETUP },

  // Order Traccar does not define.
  { request: 'GET /api/server/timezones', path: '$', kind: 'order', reason: 'Traccar answers Java\'s zone id set in hash order (none defined); ours are alphabetical' },
  { request: 'GET /api/users', path: '$', kind: 'order', reason: 'Traccar lists users in storage order (no ORDER BY: 2 before 1 here); ours are by id' },
  {
    request: 'GET /api/reports/events?deviceId={dev1}&deviceId={dev2}&deviceId={dev3}&from={from}&to={to}', path: '$', kind: 'order',
    reason: 'Traccar groups events by device in no defined order (1, 3, 2 here, though its trips and stops come 1, 2, 3); ours by device name, then time',
  },

  // Product extension: keys Traccar does not have, ignored by its clients.
  { request: '*', path: '**.twelveHourFormat', kind: 'extra', reason: 'the product spec keeps twelveHourFormat on users and the server (spec, User: "Map and display")' },
  { request: 'POST /api/commands/send *', path: '$.commandLog', kind: 'extra', reason: 'beyond Traccar, a send answers with the command\'s lifecycle entry (commands-routes.ts)' },

  // Product behaviour kept on purpose.
  { request: '*', path: '**.attributes.hours', kind: 'extra', reason: HOURS_FROM_FIRST },
  ...['endHours', 'engineHours', 'averageSpeed'].map((key): Deliberate => ({
    request: 'GET /api/reports/summary?*', path: `$[*].${key}`, kind: 'value', reason: SUMMARY_HOURS,
  })),

  // Traccar accidents we do not copy.
  { request: 'PUT /api/devices/999999', path: '$', kind: 'status', reason: 'Traccar updates no row and still answers 200 with the body; a device that does not exist is 404 here' },
  { request: 'DELETE /api/devices/999999', path: '$', kind: 'status', reason: 'Traccar deletes no row and still answers 204; a device that does not exist is 404 here' },
  { request: 'WS /api/socket no cookie', path: '$', kind: 'status', reason: 'Traccar\'s socket servlet fails (503) without a session; ours refuses the upgrade with 401 like every unauthenticated call (socket-routes.ts)' },
  { request: 'GET /api/health', path: '$', kind: 'status', reason: 'Traccar\'s text/plain health refuses Accept: application/json with 406; a health probe is answered whatever it accepts' },
];
