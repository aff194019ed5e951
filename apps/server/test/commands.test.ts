// /api/commands over real HTTP on SQLite and PostgreSQL: saved commands (CRUD, extended
// lists, links, limitCommands), types per device, the saved commands usable for a device,
// sending (202 queued / 200 live), and the OsmAnd hand-over of queued commands with the
// `queuedCommandSent` event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, Group } from '@rastro/domain/entities';
import { COMMAND_TYPES, type Command, type QueuedCommand } from '@rastro/domain/commands';
import { commandDelivery } from '../src/commands/command-delivery.ts';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { expectArrayOf, expectSchema } from './openapi.ts';
import { addPosition, create, idsOf, makeUser, setServer } from './visibility-fixtures.ts';
import { osmand } from './ingest-helpers.ts';

let seq = 0;
const uid = (name: string) => `${name}-${process.pid}-${++seq}`;

describe.each(backends)('commands (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.rastro.ctx.storage.db;
  const queued = async (deviceId: number) =>
    (await db().selectFrom('commandsQueue').selectAll().where('deviceId', '=', deviceId).orderBy('id').execute()).map((r) => Number(r.id));
  const eventsOf = async (deviceId: number) =>
    db().selectFrom('events').selectAll().where('deviceId', '=', deviceId).where('type', '=', 'queuedCommandSent').orderBy('id').execute();
  const report = (uniqueId: string, lat = -23.5) => osmand(server, `/?id=${uniqueId}&lat=${lat}&lon=-46.6&timestamp=${Math.floor(Date.now() / 1000)}&speed=0`);

  it('creates, reads, updates and deletes saved commands, linked to the creator', async () => {
    const { row: user, client } = await makeUser(server, 'cmd-crud@test');
    const res = await client.post<Command>('/api/commands', {
      id: -1, description: 'Lock', type: 'engineStop', textChannel: false, attributes: { 'tarkan.changeNative': 'engineStop' },
    });
    expect(res.status).toBe(200);
    const c = expectSchema(res.json, 'Command');
    expect(c).toMatchObject({ description: 'Lock', type: 'engineStop', textChannel: false, attributes: { 'tarkan.changeNative': 'engineStop' } });
    const links = await db().selectFrom('userCommand').select('propertyId').where('ownerId', '=', user.id).execute();
    expect(links.map((l) => Number(l.propertyId))).toEqual([c.id]);
    expect((await client.get<Command>(`/api/commands/${c.id}`)).json).toEqual(c);
    const put = await client.put<Command>(`/api/commands/${c.id}`, { ...c, description: 'Lock it', type: 'custom', attributes: { data: 'STOP' } });
    expect(put.json).toMatchObject({ id: c.id, description: 'Lock it', type: 'custom', attributes: { data: 'STOP' } });
    // Some clients send an empty array for no parameters.
    const empty = await client.post<Command>('/api/commands', { description: 'Ping', type: 'positionSingle', attributes: [] });
    expect(empty.json.attributes).toEqual({});
    const noType = await client.post('/api/commands', { description: 'x' });
    expect(noType.status).toBe(400);
    expect(noType.text).toMatch(/^Type is required/);
    expect((await client.post('/api/commands', { type: 'custom', attributes: 'x' })).status).toBe(400);
    expect((await client.delete(`/api/commands/${c.id}`)).status).toBe(204);
    expect((await client.get(`/api/commands/${c.id}`)).status).toBe(400);
    expect((await admin.get(`/api/commands/${c.id}`)).status).toBe(404);
  });

  it('lists with the extended parameters, sorted by description', async () => {
    const { row: user, client } = await makeUser(server, 'cmd-list@test');
    const other = await makeUser(server, 'cmd-list-other@test');
    const group = await create<Group>(admin, '/api/groups', { name: 'Cmd list group' });
    const device = await create<Device>(admin, '/api/devices', { name: 'Cmd list device', uniqueId: uid('cmd-list'), groupId: group.id });
    expect((await admin.post('/api/permissions', { userId: user.id, groupId: group.id })).status).toBe(204);
    const b = await create<Command>(client, '/api/commands', { description: 'Zeta reboot', type: 'rebootDevice' });
    const a = await create<Command>(client, '/api/commands', { description: 'alpha stop', type: 'engineStop', attributes: { x: 1 } });
    const c = await create<Command>(other.client, '/api/commands', { description: 'Other', type: 'custom' });
    expect((await client.post('/api/permissions', { deviceId: device.id, commandId: a.id })).status).toBe(204);
    expect((await client.post('/api/permissions', { groupId: group.id, commandId: b.id })).status).toBe(204);

    const mine = await client.get<Command[]>('/api/commands');
    expectArrayOf(mine.json, 'Command');
    expect(mine.json.map((x) => x.id)).toEqual([a.id, b.id]);
    expect(idsOf((await admin.get<Command[]>('/api/commands?all=true')).json)).toEqual(expect.arrayContaining([a.id, b.id, c.id]));
    expect(idsOf((await client.get<Command[]>('/api/commands?all=true')).json)).toEqual(idsOf([a, b]));
    expect(idsOf((await admin.get<Command[]>(`/api/commands?userId=${other.row.id}`)).json)).toEqual([c.id]);
    expect((await client.get(`/api/commands?userId=${other.row.id}`)).status).toBe(400);
    expect(idsOf((await client.get<Command[]>(`/api/commands?deviceId=${device.id}`)).json)).toEqual([a.id]);
    expect(idsOf((await client.get<Command[]>(`/api/commands?groupId=${group.id}`)).json)).toEqual([b.id]);
    expect(idsOf((await client.get<Command[]>('/api/commands?keyword=REBOOT')).json)).toEqual([b.id]);
    expect((await client.get<Command[]>('/api/commands?limit=1&offset=1')).json.map((x) => x.id)).toEqual([b.id]);
    expect((await client.get<Command[]>('/api/commands?excludeAttributes=true')).json.find((x) => x.id === a.id)?.attributes).toEqual({});
    const refused = await client.post('/api/permissions', { userId: user.id, commandId: c.id });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/^Command access denied/);
  });

  it('limitCommands (user or server) forbids creating, changing and deleting saved commands; admins are never limited', async () => {
    const limited = await makeUser(server, 'cmd-limited@test', { limitCommands: 1 });
    const res = await limited.client.post('/api/commands', { description: 'x', type: 'custom' });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/^Operation restricted/);
    const plain = await makeUser(server, 'cmd-plain@test');
    const c = await create<Command>(plain.client, '/api/commands', { description: 'Mine', type: 'custom' });
    await setServer(server, { limitCommands: 1 });
    try {
      expect((await plain.client.put(`/api/commands/${c.id}`, { description: 'changed' })).status).toBe(400);
      expect((await plain.client.delete(`/api/commands/${c.id}`)).status).toBe(400);
      expect((await plain.client.post('/api/commands', { type: 'custom' })).status).toBe(400);
      expect((await plain.client.get(`/api/commands/${c.id}`)).status).toBe(200);
      expect((await admin.post('/api/commands', { description: 'Admin', type: 'custom' })).status).toBe(200);
    } finally {
      await setServer(server, { limitCommands: 0 });
    }
    const ro = await makeUser(server, 'cmd-ro@test', { readonly: 1 });
    const roRes = await ro.client.post('/api/commands', { type: 'custom' });
    expect(roRes.status).toBe(400);
    expect(roRes.text).toMatch(/^Account is readonly/);
  });

  it('GET /api/commands/types: every type without a device; by the protocol of its latest position with one', async () => {
    const all = await admin.get<Array<{ type: string }>>('/api/commands/types');
    expect(all.json.map((t) => t.type)).toEqual([...COMMAND_TYPES]);
    const fresh = await create<Device>(admin, '/api/devices', { name: 'Never reported', uniqueId: uid('cmd-types') });
    expect((await admin.get(`/api/commands/types?deviceId=${fresh.id}`)).json).toEqual([{ type: 'custom' }]);
    const reported = await create<Device>(admin, '/api/devices', { name: 'Reported', uniqueId: uid('cmd-types') });
    await addPosition(server, reported.id, { protocol: 'osmand' });
    // OsmAnd: custom alone over data and over SMS, as Traccar answers.
    expect((await admin.get(`/api/commands/types?deviceId=${reported.id}`)).json).toEqual([{ type: 'custom' }]);
    expect((await admin.get(`/api/commands/types?deviceId=${reported.id}&textChannel=true`)).json).toEqual([{ type: 'custom' }]);
    const tracker = await create<Device>(admin, '/api/devices', { name: 'GT06', uniqueId: uid('cmd-types') });
    await addPosition(server, tracker.id, { protocol: 'gt06' });
    const types = (await admin.get<Array<{ type: string }>>(`/api/commands/types?deviceId=${tracker.id}`)).json.map((t) => t.type);
    expect(types).toEqual(expect.arrayContaining(['custom', 'engineStop', 'engineResume', 'positionSingle', 'rebootDevice']));
    expect(types).not.toContain('anchorEnable');
    const stranger = await makeUser(server, 'cmd-types-stranger@test');
    expect((await stranger.client.get(`/api/commands/types?deviceId=${reported.id}`)).status).toBe(400);
    // A device that does not exist: 400 for an administrator too, as Traccar answers, on every
    // command route that takes one.
    for (const res of [
      await admin.get('/api/commands/types?deviceId=987654'),
      await admin.get('/api/commands/send?deviceId=987654'),
      await admin.post('/api/commands/send', { deviceId: 987654, type: 'custom', attributes: { data: 'x' } }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/^Device not found - there is no device 987654/);
    }
  });

  it('GET /api/commands/send: saved commands linked to the user and to the device or its groups, supported by its protocol', async () => {
    const { row: user, client } = await makeUser(server, 'cmd-usable@test');
    const top = await create<Group>(admin, '/api/groups', { name: 'Usable top' });
    const group = await create<Group>(admin, '/api/groups', { name: 'Usable group', groupId: top.id });
    const device = await create<Device>(admin, '/api/devices', { name: 'Usable', uniqueId: uid('cmd-usable'), groupId: group.id });
    expect((await admin.post('/api/permissions', { userId: user.id, deviceId: device.id })).status).toBe(204);
    const direct = await create<Command>(client, '/api/commands', { description: 'a direct', type: 'engineStop' });
    const viaTop = await create<Command>(client, '/api/commands', { description: 'b via top', type: 'custom', attributes: { data: 'X' } });
    const unsupported = await create<Command>(client, '/api/commands', { description: 'c photo', type: 'requestPhoto' });
    const notLinkedToDevice = await create<Command>(client, '/api/commands', { description: 'd loose', type: 'custom' });
    const notMine = await create<Command>(admin, '/api/commands', { description: 'e admin', type: 'custom' });
    for (const body of [
      { deviceId: device.id, commandId: direct.id },
      { groupId: top.id, commandId: viaTop.id },
      { deviceId: device.id, commandId: unsupported.id },
      { deviceId: device.id, commandId: notMine.id },
    ]) expect((await admin.post('/api/permissions', body)).status).toBe(204);
    // Never reported: custom ones only.
    expect(idsOf((await client.get<Command[]>(`/api/commands/send?deviceId=${device.id}`)).json)).toEqual([viaTop.id]);
    // A phone (OsmAnd) cannot take a saved engine stop: custom ones only, as Traccar.
    await addPosition(server, device.id, { protocol: 'osmand' });
    expect(idsOf((await client.get<Command[]>(`/api/commands/send?deviceId=${device.id}`)).json)).toEqual([viaTop.id]);
    await addPosition(server, device.id, { protocol: 'gt06' });
    const usable = await client.get<Command[]>(`/api/commands/send?deviceId=${device.id}`);
    expectArrayOf(usable.json, 'Command');
    expect(usable.json.map((c) => c.id)).toEqual([direct.id, viaTop.id]);
    expect(usable.json.map((c) => c.id)).not.toContain(notLinkedToDevice.id);
    expect((await client.get('/api/commands/send')).status).toBe(400);
    const stranger = await makeUser(server, 'cmd-usable-stranger@test');
    expect((await stranger.client.get(`/api/commands/send?deviceId=${device.id}`)).status).toBe(400);
  });

  it('POST /api/commands/send queues for an OsmAnd device (202) and its next report carries the command', async () => {
    const { row: user, client } = await makeUser(server, 'cmd-send@test');
    const uniqueId = uid('cmd-send');
    const device = await create<Device>(admin, '/api/devices', { name: 'Sender', uniqueId });
    expect((await admin.post('/api/permissions', { userId: user.id, deviceId: device.id })).status).toBe(204);
    expect(await report(uniqueId)).toEqual({ status: 200, text: '' });

    const res = await client.post<QueuedCommand>('/api/commands/send', {
      id: 0, description: 'Novo...', deviceId: device.id, type: 'custom', textChannel: false, attributes: { data: 'setparam {uniqueId} 1' },
    });
    expect(res.status).toBe(202);
    const q = expectSchema(res.json, 'QueuedCommand');
    expect(q).toMatchObject({ deviceId: device.id, type: 'custom', textChannel: false, attributes: { data: 'setparam {uniqueId} 1' } });
    const second = await client.post<QueuedCommand>('/api/commands/send', { deviceId: device.id, type: 'outputControl', attributes: { index: 1, data: '1' } });
    expect(second.status).toBe(202);
    expect(await queued(device.id)).toEqual([q.id, second.json.id]);

    // One command per report, oldest first; each leaves the queue with a queuedCommandSent event.
    expect(await report(uniqueId)).toEqual({ status: 200, text: `setparam ${uniqueId} 1` });
    expect(await queued(device.id)).toEqual([second.json.id]);
    const latest = (await db().selectFrom('devices').select('positionId').where('id', '=', device.id).executeTakeFirstOrThrow()).positionId;
    const events = await eventsOf(device.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'queuedCommandSent', deviceId: device.id, positionId: latest, geofenceId: 0 });
    expect(JSON.parse(events[0]!.attributes)).toEqual({ id: q.id });
    expect(Math.abs(events[0]!.eventTime - Date.now())).toBeLessThan(10_000);

    expect(await report(uniqueId)).toEqual({ status: 200, text: 'outputControl data=1 index=1' });
    expect(await queued(device.id)).toEqual([]);
    expect((await eventsOf(device.id)).map((e) => JSON.parse(e.attributes) as unknown)).toEqual([{ id: q.id }, { id: second.json.id }]);
    expect(await report(uniqueId)).toEqual({ status: 200, text: '' });
    expect(commandDelivery(server.rastro.ctx).queue.hasQueued(device.id)).toBe(false);
  });

  it('sends saved commands by id; refuses what the caller may not do', async () => {
    const uniqueId = uid('cmd-rules');
    const device = await create<Device>(admin, '/api/devices', { name: 'Rules', uniqueId });
    const hidden = await create<Device>(admin, '/api/devices', { name: 'Hidden', uniqueId: uid('cmd-rules') });
    const limited = await makeUser(server, 'cmd-send-limited@test', { limitCommands: 1 });
    const dro = await makeUser(server, 'cmd-send-dro@test', { deviceReadonly: 1 });
    const ro = await makeUser(server, 'cmd-send-ro@test', { readonly: 1 });
    for (const u of [limited, dro, ro]) expect((await admin.post('/api/permissions', { userId: u.row.id, deviceId: device.id })).status).toBe(204);
    const saved = await create<Command>(admin, '/api/commands', { description: 'Unlock', type: 'engineResume' });
    const other = await create<Command>(admin, '/api/commands', { description: 'Other', type: 'engineStop' });
    expect((await admin.post('/api/permissions', { userId: limited.row.id, commandId: saved.id })).status).toBe(204);

    // limitCommands: ad-hoc refused, a saved command he may use is sent.
    const adHoc = await limited.client.post('/api/commands/send', { deviceId: device.id, type: 'engineStop' });
    expect(adHoc.status).toBe(400);
    expect(adHoc.text).toMatch(/^Operation restricted/);
    const bySaved = await limited.client.post<QueuedCommand>('/api/commands/send', { id: saved.id, deviceId: device.id, type: 'custom', attributes: {} });
    expect(bySaved.status).toBe(202);
    expect(bySaved.json).toMatchObject({ deviceId: device.id, type: 'engineResume', attributes: {} });
    const notHis = await limited.client.post('/api/commands/send', { id: other.id, deviceId: device.id });
    expect(notHis.status).toBe(400);
    expect(notHis.text).toMatch(/^Command access denied/);
    // deviceReadonly does not block commands; readonly does.
    expect((await dro.client.post('/api/commands/send', { deviceId: device.id, type: 'engineStop' })).status).toBe(202);
    const roRes = await ro.client.post('/api/commands/send', { deviceId: device.id, type: 'engineStop' });
    expect(roRes.status).toBe(400);
    expect(roRes.text).toMatch(/^Account is readonly/);
    // Device must be given and visible; SMS and noQueue cannot be honoured here.
    expect((await dro.client.post('/api/commands/send', { type: 'engineStop' })).text).toMatch(/^Device is required/);
    const hiddenRes = await dro.client.post('/api/commands/send', { deviceId: hidden.id, type: 'engineStop' });
    expect(hiddenRes.status).toBe(400);
    expect(hiddenRes.text).toMatch(/^Device access denied/);
    expect((await admin.post('/api/commands/send', { deviceId: device.id, type: 'engineStop', textChannel: true })).text).toMatch(/^SMS not configured/);
    const noQueue = await admin.post('/api/commands/send', { deviceId: device.id, type: 'engineStop', attributes: { noQueue: true } });
    expect(noQueue.status).toBe(400);
    expect(noQueue.text).toMatch(/noQueue/);
    expect((await admin.post('/api/commands/send', { deviceId: device.id })).text).toMatch(/^Type is required/);
    expect(await queued(device.id)).toHaveLength(2);
  });

  it('POST /api/commands/send?groupId= queues for every device of the group and its subgroups the caller sees', async () => {
    const { row: user, client } = await makeUser(server, 'cmd-group@test');
    const group = await create<Group>(admin, '/api/groups', { name: 'Send group' });
    const child = await create<Group>(admin, '/api/groups', { name: 'Send child', groupId: group.id });
    const d1 = await create<Device>(admin, '/api/devices', { name: 'G1', uniqueId: uid('cmd-group'), groupId: group.id });
    const d2 = await create<Device>(admin, '/api/devices', { name: 'G2', uniqueId: uid('cmd-group'), groupId: child.id });
    const outside = await create<Device>(admin, '/api/devices', { name: 'G3', uniqueId: uid('cmd-group') });
    expect((await admin.post('/api/permissions', { userId: user.id, groupId: group.id })).status).toBe(204);
    const res = await client.post<QueuedCommand[]>(`/api/commands/send?groupId=${group.id}`, { type: 'engineStop', attributes: {} });
    expect(res.status).toBe(202);
    expectArrayOf(res.json, 'QueuedCommand');
    expect(res.json.map((q) => q.deviceId)).toEqual([d1.id, d2.id]);
    expect(await queued(outside.id)).toEqual([]);
    const stranger = await makeUser(server, 'cmd-group-stranger@test');
    const refused = await stranger.client.post(`/api/commands/send?groupId=${group.id}`, { type: 'engineStop' });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/^Group access denied/);
    // An empty group: nothing queued, the command comes back with 200.
    const empty = await create<Group>(client, '/api/groups', { name: 'Empty send group' });
    const none = await client.post<Command>(`/api/commands/send?groupId=${empty.id}`, { type: 'engineStop' });
    expect(none.status).toBe(200);
    expect(none.json).toMatchObject({ type: 'engineStop', deviceId: 0 });
  });

  it('delivers at once (200) when a protocol holds a live connection to the device', async () => {
    const device = await create<Device>(admin, '/api/devices', { name: 'Live', uniqueId: uid('cmd-live') });
    const written: Array<{ deviceId: number; type: string }> = [];
    const unregister = commandDelivery(server.rastro.ctx).registerLiveSender({
      send: async (d, command) => {
        if (d.id !== device.id) return false;
        written.push({ deviceId: d.id, type: command.type });
        return true;
      },
    });
    try {
      const res = await admin.post<Command>('/api/commands/send', { description: 'Now', deviceId: device.id, type: 'engineStop' });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ deviceId: device.id, type: 'engineStop', description: 'Now' });
      expect(written).toEqual([{ deviceId: device.id, type: 'engineStop' }]);
      expect(await queued(device.id)).toEqual([]);
    } finally {
      unregister();
    }
  });

  it('a command queued on one instance reaches the device through another (shared database)', async () => {
    // The device exists before B starts (without a bus B would not hear of a new device either).
    const uniqueId = uid('cmd-multi');
    const device = await create<Device>(admin, '/api/devices', { name: 'Multi', uniqueId });
    const b = await startTestServer(backend, {}, { shareDatabaseWith: server });
    try {
      expect((await admin.post('/api/commands/send', { deviceId: device.id, type: 'custom', attributes: { data: 'HELLO' } })).status).toBe(202);
      // Without a shared bus, B learns of it from its periodic re-read of the queue.
      await commandDelivery(b.rastro.ctx).queue.refresh();
      const res = await osmand(b, `/?id=${uniqueId}&lat=1&lon=2&timestamp=${Math.floor(Date.now() / 1000)}`);
      expect(res).toEqual({ status: 200, text: 'HELLO' });
      expect(await queued(device.id)).toEqual([]);
      expect(await eventsOf(device.id)).toHaveLength(1);
    } finally {
      await b.close();
    }
  });
});
