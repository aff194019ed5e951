// The entity resources on their shared path (resources/), over real HTTP on SQLite and
// PostgreSQL: calendars, drivers, maintenance, computed attributes and notifications. One
// table of cases drives the same checks for each — CRUD with the creator linked, validation,
// who may see and change what, links through /api/permissions, the list parameters, the
// OpenAPI contract and change publication — then each resource's own rules.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, Group } from '@rastro/domain/entities';
import type { Geofence } from '@rastro/domain/geofence-area';
import type { Change } from '../src/realtime/changes.ts';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { expectArrayOf, expectResponse, expectSchema } from './openapi.ts';
import { create, idsOf, makeUser, setServer } from './visibility-fixtures.ts';

interface Identified {
  id: number;
  [key: string]: unknown;
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** A calendar as Tarkan's editor builds it: São Paulo zone, one weekly event. */
const WEEKDAYS = [
  'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Tarkan//KoreAG//EN',
  'BEGIN:VTIMEZONE', 'TZID:America/Sao_Paulo', 'BEGIN:STANDARD', 'DTSTART:19700101T000000', 'TZOFFSETFROM:-0300', 'TZOFFSETTO:-0300', 'END:STANDARD', 'END:VTIMEZONE',
  'BEGIN:VEVENT', 'UID:1@rastro', 'DTSTART;TZID=America/Sao_Paulo:20240101T080000', 'DTEND;TZID=America/Sao_Paulo:20240101T180000',
  'RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', 'SUMMARY:Horário comercial', 'END:VEVENT',
  'END:VCALENDAR', '',
].join('\r\n');
const ONCE = 'BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VEVENT\nDTSTART:20240301T000000Z\nDTEND:20240302T000000Z\nRRULE:FREQ=DAILY;COUNT=1\nEND:VEVENT\nEND:VCALENDAR\n';

interface ResourceCase {
  /** Route prefix and OpenAPI path. */
  path: string;
  api: string;
  schema: string;
  label: string;
  /** Key in /api/permissions bodies. */
  key: string;
  /** Kind of its published changes. */
  kind: string;
  /** Owners it links to besides users. */
  links: Array<'deviceId' | 'groupId'>;
  adminWrites?: boolean;
  hasAttributes: boolean;
  /** A valid body, what it reads back as, a second one sorting after it. */
  body: Record<string, unknown>;
  expected: Record<string, unknown>;
  second: Record<string, unknown>;
  /** A whole-object change (merged over the created JSON) and what it reads back as. */
  change: Record<string, unknown>;
  changed: Record<string, unknown>;
  /** A field to send alone in a partial PUT and one it must keep. */
  partial: Record<string, unknown>;
  kept: string;
  /** A word of `second` that `keyword` finds (and not in `body`). */
  keyword: string;
  /** The field lists are sorted by. */
  orderField: 'name' | 'description';
  invalid: Array<[unknown, RegExp]>;
  /** A field an update may not set, and the refusal. */
  badUpdate: [Record<string, unknown>, RegExp];
}

const CASES: ResourceCase[] = [
  {
    path: '/api/calendars', api: '/calendars', schema: 'Calendar', label: 'Calendar', key: 'calendarId', kind: 'calendar', links: [], hasAttributes: true,
    body: { id: -1, name: 'Business hours', data: b64(WEEKDAYS), attributes: { color: 'blue' } },
    expected: { name: 'Business hours', data: b64(WEEKDAYS), attributes: { color: 'blue' } },
    second: { name: 'holiday once', data: b64(ONCE) },
    change: { name: 'Office hours', data: b64(ONCE) }, changed: { name: 'Office hours', data: b64(ONCE), attributes: { color: 'blue' } },
    partial: { name: 'Hours' }, kept: 'data',
    keyword: 'HOLI', orderField: 'name',
    invalid: [
      [{ data: b64(ONCE) }, /^Name is required/],
      [{ name: 'x' }, /^Data is required/],
      [{ name: 'x', data: '***' }, /^Invalid data - must be base64/],
      [{ name: 'x', data: b64('hello world') }, /^Invalid data - must be an iCalendar object starting with BEGIN:VCALENDAR/],
      [{ name: 'x', data: b64('BEGIN:VCALENDAR\nBEGIN:VEVENT\nEND:VCALENDAR\n') }, /^Invalid data - must close its blocks in order/],
      [{ name: 'x', data: b64('BEGIN:VCALENDAR\nVERSION:2.0\n') }, /^Invalid data - must end with END:VCALENDAR/],
      [{ name: 'x', data: b64(ONCE), attributes: [] }, /^Invalid attributes/],
      [[1], /^Invalid body/],
    ],
    badUpdate: [{ data: b64('hello') }, /^Invalid data - must be an iCalendar object/],
  },
  {
    path: '/api/drivers', api: '/drivers', schema: 'Driver', label: 'Driver', key: 'driverId', kind: 'driver', links: ['deviceId', 'groupId'], hasAttributes: true,
    body: { name: ' Ana Souza ', uniqueId: 'rfid-0001', attributes: { 'tarkan.enableQrCode': false } },
    expected: { name: 'Ana Souza', uniqueId: 'rfid-0001', attributes: { 'tarkan.enableQrCode': false } },
    second: { name: 'bruno lima', uniqueId: 'ibutton-77' },
    change: { name: 'Ana S.', uniqueId: 'rfid-0002' }, changed: { name: 'Ana S.', uniqueId: 'rfid-0002' },
    partial: { name: 'Ana' }, kept: 'uniqueId',
    keyword: 'BUTTON-7', orderField: 'name',
    invalid: [
      [{ uniqueId: 'x' }, /^Name is required/],
      [{ name: 'x', uniqueId: ' ' }, /^Unique identifier is required/],
      [{ name: 'x', uniqueId: 'y', attributes: 'no' }, /^Invalid attributes/],
    ],
    badUpdate: [{ uniqueId: '' }, /^Unique identifier is required/],
  },
  {
    path: '/api/maintenance', api: '/maintenance', schema: 'Maintenance', label: 'Maintenance', key: 'maintenanceId', kind: 'maintenance', links: ['deviceId', 'groupId'], hasAttributes: true,
    body: { name: 'Oil change', type: 'totalDistance', start: 1000000, period: 10000000, attributes: {} },
    expected: { name: 'Oil change', type: 'totalDistance', start: 1000000, period: 10000000, attributes: {} },
    second: { name: 'tyre rotation', type: 'hours', start: '0', period: '36000000.5' },
    change: { name: 'Oil', start: 0, period: 0 }, changed: { name: 'Oil', type: 'totalDistance', start: 0, period: 0 },
    partial: { period: 5 }, kept: 'name',
    keyword: 'TYRE', orderField: 'name',
    invalid: [
      [{ type: 'hours' }, /^Name is required/],
      [{ name: 'x' }, /^Type is required/],
      [{ name: 'x', type: 'hours', period: -1 }, /^Invalid period - must be a number of at least 0/],
      [{ name: 'x', type: 'hours', start: 'soon' }, /^Invalid start - must be a number/],
    ],
    badUpdate: [{ period: -1 }, /^Invalid period/],
  },
  {
    path: '/api/attributes/computed', api: '/attributes/computed', schema: 'Attribute', label: 'Computed attribute', key: 'attributeId', kind: 'computedAttribute', links: ['deviceId', 'groupId'],
    adminWrites: true, hasAttributes: false,
    body: { description: 'Fuel litres', attribute: 'fuel', expression: 'adc1 * 0.5', type: 'number', priority: 0 },
    expected: { description: 'Fuel litres', attribute: 'fuel', expression: 'adc1 * 0.5', type: 'number', priority: 0 },
    second: { description: 'ignition from input', attribute: 'ignition', expression: 'in1', type: 'Boolean', priority: -1 },
    change: { expression: 'adc1 * 0.4', type: 'string', priority: 3 }, changed: { expression: 'adc1 * 0.4', type: 'string', priority: 3 },
    partial: { priority: 7 }, kept: 'expression',
    keyword: 'INPUT', orderField: 'description',
    invalid: [
      [{ attribute: 'a', expression: 'x', type: 'number' }, /^Description is required/],
      [{ description: 'd', expression: 'x', type: 'number' }, /^Attribute is required/],
      [{ description: 'd', attribute: 'a', expression: '  ', type: 'number' }, /^Expression is required/],
      [{ description: 'd', attribute: 'a', expression: 'x', type: 'date' }, /^Invalid type - must be one of string, number, boolean/],
      [{ description: 'd', attribute: 'a', expression: 'x', type: 'number', priority: 1.5 }, /^Invalid priority - must be a whole number/],
    ],
    badUpdate: [{ expression: '' }, /^Expression is required/],
  },
  {
    path: '/api/notifications', api: '/notifications', schema: 'Notification', label: 'Notification', key: 'notificationId', kind: 'notification', links: ['deviceId', 'groupId'], hasAttributes: true,
    body: { type: 'alarm', description: 'Alarms', always: true, notificators: 'web, mail', calendarId: 0, commandId: 0, attributes: { alarms: 'sos,powerCut' } },
    expected: { type: 'alarm', description: 'Alarms', always: true, notificators: 'web,mail', calendarId: 0, commandId: 0, attributes: { alarms: 'sos,powerCut' } },
    second: { type: 'ignitionOn', description: 'ignition watch', notificators: 'web' },
    change: { type: 'geofenceEnter', always: false, notificators: '' }, changed: { type: 'geofenceEnter', always: false, notificators: null, description: 'Alarms' },
    partial: { always: 'true' }, kept: 'type',
    keyword: 'WATCH', orderField: 'description',
    invalid: [
      [{ notificators: 'web' }, /^Type is required/],
      [{ type: 'textMessage' }, /^Invalid type - must be an event type of GET \/api\/notifications\/types/],
      [{ type: 'alarm', calendarId: 'x' }, /^Invalid calendarId/],
      [{ type: 'alarm', always: 'maybe' }, /^Invalid always/],
    ],
    badUpdate: [{ type: 'textMessage' }, /^Invalid type/],
  },
];

let serial = 0;
/** The body again with a uniqueId no other driver holds (unique among drivers). */
const fresh = (body: Record<string, unknown>) => ('uniqueId' in body ? { ...body, uniqueId: `${String(body.uniqueId)}-${++serial}` } : body);

describe.each(backends)('entity resources (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  const changes: Change[] = [];

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
    server.rastro.ctx.changes.on((change) => changes.push(change));
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Who creates a case's objects: a plain user, or the administrator where only they may. */
  async function creator(c: ResourceCase, email: string) {
    const user = await makeUser(server, email);
    return { user, writer: c.adminWrites ? admin : user.client };
  }

  const linkedTo = async (c: ResourceCase, userId: number) =>
    idsOf((await admin.get<Identified[]>(`/api/permissions?userId=${userId}&${c.key}=0`)).json.map((l) => ({ id: Number(l[c.key]) })));

  describe.each(CASES)('$path', (c) => {
    it('creates (creator linked), reads, updates (whole or partial) and deletes, as the OpenAPI file says', async () => {
      const { user, writer } = await creator(c, `crud${c.key}@test`);
      const writerId = c.adminWrites ? 1 : user.row.id;
      changes.length = 0;
      const res = await writer.post<Identified>(c.path, c.body);
      expect(res.status, res.text).toBe(200);
      const created = expectSchema<Identified>(expectResponse('POST', c.api, res), c.schema);
      expect(created).toMatchObject(c.expected);
      expect(created.id).toBeGreaterThan(0);
      if (!c.hasAttributes) expect(created).not.toHaveProperty('attributes');
      expect(await linkedTo(c, writerId)).toContain(created.id);

      const one = await writer.get<Identified>(`${c.path}/${created.id}`);
      expect(expectResponse('GET', `${c.api}/{id}`, one)).toEqual(created);

      const put = await writer.put<Identified>(`${c.path}/${created.id}`, { ...created, ...c.change });
      expect(put.status, put.text).toBe(200);
      expect(expectSchema(expectResponse('PUT', `${c.api}/{id}`, put), c.schema)).toMatchObject({ id: created.id, ...c.changed });
      const partial = await writer.put<Identified>(`${c.path}/${created.id}`, c.partial);
      expect(partial.status, partial.text).toBe(200);
      expect(partial.json[c.kept]).toEqual(put.json[c.kept]);
      expect((await writer.put(`${c.path}/${created.id}`, { id: created.id })).text).toMatch(/^Nothing to update/);

      const list = await writer.get<Identified[]>(c.path);
      expectArrayOf(expectResponse<unknown[]>('GET', c.api, list), c.schema);
      expect(list.json.map((o) => o.id)).toContain(created.id);

      const del = await writer.delete(`${c.path}/${created.id}`);
      expect(del.status).toBe(204);
      expectResponse('DELETE', `${c.api}/{id}`, { status: del.status, json: undefined });
      expect(await linkedTo(c, writerId)).not.toContain(created.id);
      const gone = await admin.get(`${c.path}/${created.id}`);
      expect(gone.status).toBe(404);
      expectResponse('GET', `${c.api}/{id}`, { status: gone.status, json: undefined });
      // Every write was published for caches and other instances.
      const kind = c.kind;
      expect(changes.filter((ch) => ch.kind === kind)).toEqual([
        { kind, id: created.id }, { kind, id: created.id }, { kind, id: created.id }, { kind, id: created.id },
      ]);
    });

    it('refuses bad bodies with a 400 that names the field', async () => {
      for (const [body, message] of c.invalid) {
        const res = await admin.post(c.path, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.text).toMatch(message);
      }
      const made = await create<Identified>(admin, c.path, fresh(c.body));
      const bad = await admin.put(`${c.path}/${made.id}`, { ...made, ...c.badUpdate[0] });
      expect(bad.status).toBe(400);
      expect(bad.text).toMatch(c.badUpdate[1]);
      expect((await admin.get<Identified>(`${c.path}/${made.id}`)).json).toEqual(made);
      expect((await admin.get(`${c.path}/abc`)).status).toBe(400);
    });

    it('lets non-administrators reach only what is linked to them; readonly accounts change nothing', async () => {
      const owner = await creator(c, `own${c.key}@test`);
      const other = await makeUser(server, `other${c.key}@test`);
      const made = await create<Identified>(owner.writer, c.path, fresh(c.body));
      const denied = new RegExp(`^${c.label} access denied - you cannot use`);
      // Writes of computed attributes stop at the administrator check first.
      const writeDenied = c.adminWrites ? /^Administrator access required/ : denied;
      for (const [res, refusal] of [
        [await other.client.get(`${c.path}/${made.id}`), denied],
        [await other.client.put(`${c.path}/${made.id}`, c.partial), writeDenied],
        [await other.client.delete(`${c.path}/${made.id}`), writeDenied],
        [await other.client.post('/api/permissions', { userId: other.row.id, [c.key]: made.id }), denied],
      ] as const) {
        expect(res.status).toBe(400);
        expect(res.text).toMatch(refusal);
      }
      expect(idsOf((await other.client.get<Identified[]>(c.path)).json)).not.toContain(made.id);
      // Shared through a user link, it can be read.
      expect((await admin.post('/api/permissions', { userId: other.row.id, [c.key]: made.id })).status).toBe(204);
      expect((await other.client.get(`${c.path}/${made.id}`)).status).toBe(200);
      expect(idsOf((await other.client.get<Identified[]>(c.path)).json)).toContain(made.id);

      const ro = await makeUser(server, `ro${c.key}@test`, { readonly: 1 });
      const refused = await ro.client.post(c.path, fresh(c.body));
      expect(refused.status).toBe(400);
      expect(refused.text).toMatch(c.adminWrites ? /^Administrator access required/ : /^Account is readonly/);
      if (!c.adminWrites) {
        await setServer(server, { readonly: 1 });
        try {
          expect((await other.client.put(`${c.path}/${made.id}`, c.partial)).text).toMatch(/^Account is readonly/);
          expect((await other.client.delete(`${c.path}/${made.id}`)).status).toBe(400);
          expect((await other.client.get(`${c.path}/${made.id}`)).status).toBe(200);
        } finally {
          await setServer(server, { readonly: 0 });
        }
        // Linked, a plain user may change it.
        expect((await other.client.put(`${c.path}/${made.id}`, c.partial)).status).toBe(200);
      } else {
        // Only administrators write computed attributes, linked or not.
        for (const res of [
          await other.client.post(c.path, fresh(c.body)),
          await other.client.put(`${c.path}/${made.id}`, c.partial),
          await other.client.delete(`${c.path}/${made.id}`),
        ]) expect(res.text).toMatch(/^Administrator access required/);
      }
    });

    it('links to devices and groups where Traccar has such link tables', async () => {
      const { user, writer } = await creator(c, `link${c.key}@test`);
      const group = await create<Group>(admin, '/api/groups', { name: `Group ${c.key}` });
      const device = await create<Device>(admin, '/api/devices', { name: `Device ${c.key}`, uniqueId: `link-${c.key}`, groupId: group.id });
      for (const body of [{ userId: user.row.id, deviceId: device.id }, { userId: user.row.id, groupId: group.id }]) {
        expect((await admin.post('/api/permissions', body)).status).toBe(204);
      }
      const made = await create<Identified>(writer, c.path, fresh(c.body));
      if (c.adminWrites) expect((await admin.post('/api/permissions', { userId: user.row.id, [c.key]: made.id })).status).toBe(204);
      for (const owner of ['deviceId', 'groupId'] as const) {
        const ownerId = owner === 'deviceId' ? device.id : group.id;
        const res = await user.client.post('/api/permissions', { [owner]: ownerId, [c.key]: made.id });
        if (c.links.includes(owner)) {
          expect(res.status, res.text).toBe(204);
          expect(idsOf((await user.client.get<Identified[]>(`${c.path}?${owner}=${ownerId}`)).json)).toEqual([made.id]);
          expect((await user.client.delete('/api/permissions', { [owner]: ownerId, [c.key]: made.id })).status).toBe(204);
          expect((await user.client.get<Identified[]>(`${c.path}?${owner}=${ownerId}`)).json).toEqual([]);
        } else {
          expect(res.status).toBe(400);
          expect(res.text).toMatch(new RegExp(`^Invalid permission - ${owner} cannot be linked to ${c.key}`));
        }
      }
    });

    it('lists with the list parameters: all, userId, keyword, paging, excludeAttributes, sorted', async () => {
      const { user, writer } = await creator(c, `list${c.key}@test`);
      const stranger = await makeUser(server, `stranger${c.key}@test`);
      const writerId = c.adminWrites ? 1 : user.row.id;
      const a = await create<Identified>(writer, c.path, fresh(c.body));
      const b = await create<Identified>(writer, c.path, fresh(c.second));
      const theirs = await create<Identified>(admin, c.path, fresh(c.body));
      const mine = (await admin.get<Identified[]>(`${c.path}?userId=${writerId}&keyword=${c.keyword}`)).json;
      expect(mine.map((o) => o.id)).toEqual([b.id]);
      // Sorted case-insensitively by name or description: "Zz last" after the lower-case second body.
      const z = await create<Identified>(writer, c.path, fresh({ ...c.body, [c.orderField]: 'Zz last' }));
      const sorted = (await admin.get<Identified[]>(`${c.path}?userId=${writerId}`)).json.map((o) => o.id).filter((id) => [a.id, b.id, z.id].includes(id));
      expect(sorted).toEqual([a.id, b.id, z.id]);
      expect((await admin.get<Identified[]>(`${c.path}?all=true`)).json.map((o) => o.id)).toEqual(expect.arrayContaining([a.id, b.id, theirs.id]));
      expect((await stranger.client.get<Identified[]>(`${c.path}?all=true`)).json).toEqual([]);
      expect((await stranger.client.get(`${c.path}?userId=${writerId}`)).status).toBe(400);
      const page = (await admin.get<Identified[]>(`${c.path}?userId=${writerId}&limit=1&offset=1`)).json;
      expect(page).toHaveLength(1);
      const bare = (await admin.get<Identified[]>(`${c.path}?userId=${writerId}&excludeAttributes=true`)).json;
      if (c.hasAttributes) expect(bare.find((o) => o.id === a.id)?.attributes).toEqual({});
      else expect(bare.find((o) => o.id === a.id)).toEqual(a);
      // Lists of devices or groups the caller does not see are refused; simple lists ignore them.
      const hidden = await create<Device>(admin, '/api/devices', { name: `Hidden ${c.key}`, uniqueId: `hidden-${c.key}` });
      const res = await stranger.client.get(`${c.path}?deviceId=${hidden.id}`);
      expect(res.status).toBe(c.links.length > 0 ? 400 : 200);
    });
  });

  it('GET /api/notifications/types answers the event types as Traccar 6.14.5 lists them', async () => {
    const fixture = JSON.parse(fs.readFileSync(new URL('./differential/traccar-world-1.json', import.meta.url), 'utf8')) as {
      answers: Record<string, { json?: unknown }>;
    };
    const res = await admin.get('/api/notifications/types');
    expectArrayOf(expectResponse<unknown[]>('GET', '/notifications/types', res), 'NotificationType', { minLength: 1 });
    expect(res.json).toEqual(fixture.answers['GET /api/notifications/types']!.json);
    expect((await server.client().get('/api/notifications/types')).status).toBe(401);
  });

  it('deleting a calendar clears the calendarId of the devices, geofences and notifications that named it', async () => {
    const calendar = await create<Identified>(admin, '/api/calendars', { name: 'To delete', data: b64(ONCE) });
    const keep = await create<Identified>(admin, '/api/calendars', { name: 'To keep', data: b64(ONCE) });
    const device = await create<Device>(admin, '/api/devices', { name: 'Scheduled', uniqueId: 'cal-dev-1', calendarId: calendar.id });
    const other = await create<Device>(admin, '/api/devices', { name: 'Other', uniqueId: 'cal-dev-2', calendarId: keep.id });
    const geofence = await create<Geofence>(admin, '/api/geofences', { name: 'Scheduled', area: 'CIRCLE (1 2, 10)', calendarId: calendar.id });
    const notification = await create<Identified>(admin, '/api/notifications', { type: 'geofenceEnter', calendarId: calendar.id });
    expect(notification.calendarId).toBe(calendar.id);
    changes.length = 0;
    expect((await admin.delete(`/api/calendars/${calendar.id}`)).status).toBe(204);

    const db = server.rastro.ctx.storage.db;
    const calendarOf = async (table: 'devices' | 'geofences' | 'notifications', id: number) =>
      (await db.selectFrom(table).select('calendarId').where('id', '=', id).executeTakeFirstOrThrow()).calendarId;
    expect(await calendarOf('devices', device.id)).toBeNull();
    expect(await calendarOf('devices', other.id)).toBe(keep.id);
    expect(await calendarOf('geofences', geofence.id)).toBeNull();
    expect(await calendarOf('notifications', notification.id)).toBeNull();
    expect((await admin.get<Identified>(`/api/notifications/${notification.id}`)).json.calendarId).toBe(0);
    expect((await admin.get<Geofence>(`/api/geofences/${geofence.id}`)).json.calendarId).toBe(0);
    // The device cache, the geofence cache and the sockets hear of each.
    expect(changes).toEqual(expect.arrayContaining([
      { kind: 'calendar', id: calendar.id }, { kind: 'device', id: device.id }, { kind: 'geofence', id: geofence.id }, { kind: 'notification', id: notification.id },
    ]));
    expect(changes).not.toContainEqual({ kind: 'device', id: other.id });
  });

  it('notifications name only calendars and saved commands the caller may use', async () => {
    const { row: user, client } = await makeUser(server, 'notif-refs@test');
    const theirCalendar = await create<Identified>(admin, '/api/calendars', { name: 'Admin calendar', data: b64(ONCE) });
    const myCalendar = await create<Identified>(client, '/api/calendars', { name: 'My calendar', data: b64(ONCE) });
    const theirCommand = await create<Identified>(admin, '/api/commands', { description: 'Stop', type: 'engineStop' });
    const myCommand = await create<Identified>(client, '/api/commands', { description: 'Resume', type: 'engineResume' });
    const cal = await client.post('/api/notifications', { type: 'alarm', calendarId: theirCalendar.id });
    expect(cal.status).toBe(400);
    expect(cal.text).toMatch(/^Calendar access denied - you cannot use calendar/);
    const cmd = await client.post('/api/notifications', { type: 'alarm', notificators: 'command', commandId: theirCommand.id });
    expect(cmd.text).toMatch(/^Command access denied/);
    const made = await create<Identified>(client, '/api/notifications', { type: 'alarm', calendarId: myCalendar.id, notificators: 'command', commandId: myCommand.id });
    expect(made).toMatchObject({ calendarId: myCalendar.id, commandId: myCommand.id });
    // Administrators may name any calendar, but it must exist.
    const missing = await admin.post('/api/notifications', { type: 'alarm', calendarId: 999999 });
    expect(missing.status).toBe(400);
    expect(missing.text).toMatch(/^Calendar not found - there is no calendar 999999/);
    // A reference kept as it is passes even when the caller lost access to it.
    await admin.post('/api/permissions', { userId: user.id, calendarId: theirCalendar.id });
    const shared = await client.put<Identified>(`/api/notifications/${made.id}`, { ...made, calendarId: theirCalendar.id });
    expect(shared.status, shared.text).toBe(200);
    await admin.delete('/api/permissions', { userId: user.id, calendarId: theirCalendar.id });
    expect((await client.put(`/api/notifications/${made.id}`, { ...shared.json, description: 'kept' })).status).toBe(200);
    // Deleting the saved command leaves the notification without one.
    expect((await client.delete(`/api/commands/${myCommand.id}`)).status).toBe(204);
    expect((await client.get<Identified>(`/api/notifications/${made.id}`)).json.commandId).toBe(0);
  });

  it('drivers: a uniqueId belongs to one driver', async () => {
    const first = await create<Identified>(admin, '/api/drivers', { name: 'One', uniqueId: 'dup-1' });
    const second = await create<Identified>(admin, '/api/drivers', { name: 'Two', uniqueId: 'dup-2' });
    const again = await admin.post('/api/drivers', { name: 'Again', uniqueId: 'dup-1' });
    expect(again.status).toBe(400);
    expect(again.text).toBe('Duplicate unique identifier - another driver already uses dup-1');
    const clash = await admin.put(`/api/drivers/${second.id}`, { uniqueId: 'dup-1' });
    expect(clash.status).toBe(400);
    expect(clash.text).toMatch(/^Duplicate unique identifier/);
    expect((await admin.put<Identified>(`/api/drivers/${first.id}`, { name: 'Uno', uniqueId: 'dup-1' })).json).toMatchObject({ name: 'Uno', uniqueId: 'dup-1' });
  });

  it('calendars link to users only: a device or group link does not exist', async () => {
    const calendar = await create<Identified>(admin, '/api/calendars', { name: 'Unlinked', data: b64(ONCE) });
    const device = await create<Device>(admin, '/api/devices', { name: 'No calendar link', uniqueId: 'cal-link-1' });
    const res = await admin.post('/api/permissions', { deviceId: device.id, calendarId: calendar.id });
    expect(res.status).toBe(400);
    expect(res.text).toBe('Invalid permission - deviceId cannot be linked to calendarId');
    expect((await admin.get(`/api/permissions?deviceId=${device.id}&calendarId=0`)).status).toBe(400);
  });
});
