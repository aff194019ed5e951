// Public routes (health, CORS preflight, the web client's files, device ingest), the server
// settings, statistics, the header weather and the live socket.
import { NO, OK, OUT, SIGNED_OUT, deviceIds } from '../roles.ts';
import { fixed, period, type Row } from '../table.ts';
import { everyDevice, seesDevices } from '../model.ts';

/** Everyone, signed in or not: nothing of the caller is looked at. */
const EVERYONE = {
  admin: OK, admin2: OK, reseller: OK, subReseller: OK, customer: OK, unrelated: OK, readonly: OK, deviceReadonly: OK,
  limitCommands: OK, disabled: OK, expired: OK, shared: OK, driver: OK, anonymous: OK,
} as const;

const EVERY_ACTIVE = {
  admin: OK, admin2: OK, reseller: OK, subReseller: OK, customer: OK, unrelated: OK, readonly: OK, deviceReadonly: OK,
  limitCommands: OK, shared: OK, driver: OK,
} as const;

const ADMINS_ONLY = {
  admin: OK, admin2: OK, reseller: NO, subReseller: NO, customer: NO, unrelated: NO, readonly: NO, deviceReadonly: NO,
  limitCommands: NO, shared: NO, driver: NO, ...SIGNED_OUT,
} as const;

export const serverRows: Row[] = [
  {
    route: 'GET /api/health',
    variant: 'health check (public)',
    request: fixed('/api/health'),
    // Public, but Basic credentials that fail are refused rather than ignored (as Traccar).
    expect: { ...EVERYONE, disabled: OUT },
  },
  {
    route: 'OPTIONS /api/*',
    variant: 'CORS preflight (no credentials are looked at)',
    request: fixed('/api/devices'),
    expect: EVERYONE,
  },
  { route: 'GET /', variant: 'the web client (public)', request: fixed('/'), expect: EVERYONE },
  { route: 'GET /index.html', variant: 'the web client page (public)', request: fixed('/index.html'), expect: EVERYONE },
  { route: 'GET /assets/app.js', variant: 'a built asset (public)', request: fixed('/assets/app.js'), expect: EVERYONE },
  {
    route: 'INGEST osmand',
    variant: 'a device reports on the OsmAnd port (devices do not sign in; credentials are ignored)',
    request: ({ w }) => ({ path: `/?id=authz-admin&timestamp=${Date.parse(w.period.from) / 1000 + 60}&lat=-23.55&lon=-46.63&speed=0`, target: 'osmand' }),
    expect: EVERYONE,
  },
  {
    route: 'GET /api/server',
    variant: 'server settings (public)',
    request: fixed('/api/server'),
    expect: { ...EVERYONE, disabled: OUT },
  },
  {
    route: 'PUT /api/server',
    variant: 'saving the settings unchanged',
    request: async ({ admin }) => ({ path: '/api/server', body: (await admin.get('/api/server')).json }),
    expect: ADMINS_ONLY,
  },
  {
    route: 'GET /api/server/timezones',
    variant: 'time zone names',
    request: fixed('/api/server/timezones'),
    expect: { ...EVERY_ACTIVE, ...SIGNED_OUT },
  },
  {
    route: 'POST /api/server/restart',
    variant: 'restart (this test server has no restarter: 503 past the permission check)',
    request: fixed('/api/server/restart'),
    expect: { ...ADMINS_ONLY, admin: 503, admin2: 503 },
    nobodyPasses: 'the test server is started without restart support; administrators get past the check to 503',
  },
  {
    route: 'POST /api/server/reboot',
    variant: "Traccar's restart path (503 past the permission check)",
    request: fixed('/api/server/reboot'),
    expect: { ...ADMINS_ONLY, admin: 503, admin2: 503 },
    nobodyPasses: 'the test server is started without restart support; administrators get past the check to 503',
  },
  {
    route: 'GET /api/statistics',
    variant: 'server statistics',
    request: ({ w }) => ({ path: `/api/statistics?${period(w)}` }),
    expect: ADMINS_ONLY,
  },
  {
    route: 'GET /tarkan/weather',
    variant: 'header weather (turned off on the test server: 204)',
    request: fixed('/tarkan/weather'),
    expect: { ...EVERY_ACTIVE, ...SIGNED_OUT },
  },
  {
    route: 'GET /api/socket',
    variant: 'the live socket: its first message holds the latest position of every device the caller sees',
    request: fixed('/api/socket', { target: 'socket' }),
    expect: {
      admin: deviceIds(everyDevice), admin2: deviceIds(everyDevice), reseller: deviceIds(seesDevices('reseller')),
      subReseller: deviceIds(seesDevices('subReseller')), customer: deviceIds(seesDevices('customer')),
      unrelated: deviceIds(seesDevices('unrelated')), readonly: deviceIds(seesDevices('readonly')),
      deviceReadonly: deviceIds(seesDevices('deviceReadonly')), limitCommands: deviceIds(seesDevices('limitCommands')),
      shared: deviceIds(seesDevices('shared')),
      // QR drivers only use the driver screen: no map, no live feed.
      driver: NO,
      ...SIGNED_OUT,
    },
  },
];
