// The command lifecycle over real HTTP, on SQLite and PostgreSQL: queued → sent → acknowledged
// → confirmed with an OsmAnd device, failed on timeout (also after a restart: the stored row is
// what counts), cancelled, superseded; the engine-stop speed guard on the queued path (OsmAnd)
// and on the live path (a LiveCommandSender, as the TCP listener registers); GET / DELETE
// /api/commands/log; and over TCP, a GT06 and a Teltonika unit answering a live engine stop at
// once, the effect before or after the reply.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device } from '@rastro/domain/entities';
import type { CommandLogEntry } from '@rastro/domain/command-log';
import type { QueuedCommand } from '@rastro/domain/commands';
import { commandDelivery } from '../src/commands/command-delivery.ts';
import { emptyFix } from '../src/ingest/decoded.ts';
import { buildFrame } from '../src/ingest/gt06/framing.ts';
import { location22, login, status13 } from '../src/ingest/gt06/gt06-vectors.ts';
import { CODEC_12, CODEC_8 } from '../src/ingest/teltonika/constants.ts';
import { avlData, avlRecord, imeiHandshake, tcpPacket } from '../src/ingest/teltonika/teltonika-packets.ts';
import { ByteClient } from './byte-client.ts';
import { backends, freePort, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { create, makeUser, setServer } from './visibility-fixtures.ts';
import { osmand } from './ingest-helpers.ts';
import { eventually } from './device-listener-helpers.ts';

let seq = 0;
const uid = (name: string) => `${name}-${process.pid}-${++seq}`;
/** Report times one second apart (in the past): each report is the device's latest, whatever the second it is sent in. */
let clock = Math.floor(Date.now() / 1000) - 3_600;
const timestamp = () => String(++clock);
/** Knots for a speed in km/h (OsmAnd's `speed` is in knots). */
const kmh = (v: number) => (v / 1.852).toFixed(2);

type SendAnswer = QueuedCommand & { commandLog: CommandLogEntry };

describe.each(backends)('command lifecycle (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
  });
  afterAll(async () => {
    await server?.close();
  });

  const delivery = () => commandDelivery(server.rastro.ctx);
  const db = () => server.rastro.ctx.storage.db;
  const report = async (uniqueId: string, fields: Record<string, string> = {}, target = server) => {
    const query = new URLSearchParams({ id: uniqueId, lat: '-23.5', lon: '-46.6', timestamp: timestamp(), speed: '0', ...fields });
    const res = await osmand(target, `/?${query}`);
    expect(res.status, res.text).toBe(200);
    // Replies and effects are stored after the flush that carried them.
    await commandDelivery(target.rastro.ctx).lifecycle.settled();
    return res.text;
  };
  const logOf = async (deviceId: number, client = admin) => {
    const res = await client.get<CommandLogEntry[]>(`/api/commands/log?deviceId=${deviceId}`);
    expect(res.status, res.text).toBe(200);
    return res.json;
  };
  const device = async (name: string) => {
    const uniqueId = uid(name);
    return { ...(await create<Device>(admin, '/api/devices', { name, uniqueId })), uniqueId };
  };

  it('an engine stop to an OsmAnd device: queued → sent → acknowledged with the reply → confirmed by blocked=true', async () => {
    const d = await device('Lifecycle');
    await report(d.uniqueId);
    const sent = await admin.post<SendAnswer>('/api/commands/send', { deviceId: d.id, type: 'engineStop', description: 'Bloquear' });
    // Traccar's answer is unchanged (202 + the QueuedCommand), with the lifecycle beside it.
    expect(sent.status).toBe(202);
    expect(sent.json).toMatchObject({ deviceId: d.id, type: 'engineStop', textChannel: false });
    expect(sent.json.commandLog).toMatchObject({ deviceId: d.id, userId: 1, type: 'engineStop', description: 'Bloquear', status: 'queued', reason: 'nextMessage', sentTime: null });

    const [queued] = await logOf(d.id);
    expect(queued).toEqual(sent.json.commandLog);

    expect(await report(d.uniqueId)).toBe('engineStop');
    const [delivered] = await logOf(d.id);
    expect(delivered).toMatchObject({ id: queued!.id, status: 'sent', reason: null, acknowledgedTime: null });
    expect(Date.parse(delivered!.sentTime!)).toBeGreaterThanOrEqual(Date.parse(delivered!.createdTime));
    // Traccar's event for a handed-over queued command is still stored.
    const events = await db().selectFrom('events').select('type').where('deviceId', '=', d.id).execute();
    expect(events.map((e) => e.type)).toContain('queuedCommandSent');

    // A position without a reply changes nothing; then the reply, then the effect.
    await report(d.uniqueId, { blocked: 'false' });
    expect((await logOf(d.id))[0]).toMatchObject({ status: 'sent' });
    await report(d.uniqueId, { result: 'Cut oil and electricity OK' });
    const [acknowledged] = await logOf(d.id);
    expect(acknowledged).toMatchObject({ status: 'acknowledged', result: 'Cut oil and electricity OK', confirmedTime: null });
    await report(d.uniqueId, { blocked: 'true' });
    const [confirmed] = await logOf(d.id);
    expect(confirmed).toMatchObject({ status: 'confirmed', result: 'Cut oil and electricity OK' });
    expect(Date.parse(confirmed!.confirmedTime!)).toBeGreaterThanOrEqual(Date.parse(confirmed!.acknowledgedTime!));
  });

  it('a device that never reported: queued because offline; a custom command ends at acknowledged', async () => {
    const d = await device('Offline');
    const sent = await admin.post<SendAnswer>('/api/commands/send', { deviceId: d.id, type: 'custom', attributes: { data: 'STATUS#' } });
    expect(sent.json.commandLog).toMatchObject({ status: 'queued', reason: 'offline' });
    expect(await report(d.uniqueId)).toBe('STATUS#');
    // Two commands sent: one reply answers the oldest.
    await admin.post('/api/commands/send', { deviceId: d.id, type: 'custom', attributes: { data: 'VERSION#' } });
    expect(await report(d.uniqueId)).toBe('VERSION#');
    await report(d.uniqueId, { result: 'STATUS: OK', blocked: 'true' });
    const [second, first] = await logOf(d.id);
    expect(first).toMatchObject({ status: 'acknowledged', result: 'STATUS: OK', reason: null });
    expect(second).toMatchObject({ status: 'sent', result: null });
    await report(d.uniqueId, { result: 'V1.2' });
    expect((await logOf(d.id))[0]).toMatchObject({ status: 'acknowledged', result: 'V1.2' });
    // Nothing confirms a custom command: blocked does not move it.
    await report(d.uniqueId, { blocked: 'true' });
    expect((await logOf(d.id)).map((e) => e.status)).toEqual(['acknowledged', 'acknowledged']);
  });

  it('a reply arriving before the command was sent acknowledges nothing', async () => {
    const d = await device('Early reply');
    await report(d.uniqueId);
    await admin.post('/api/commands/send', { deviceId: d.id, type: 'engineResume' });
    // The report that picks the command up carries an (older) reply: it was received before the send.
    expect(await report(d.uniqueId, { result: 'stale answer' })).toBe('engineResume');
    expect((await logOf(d.id))[0]).toMatchObject({ status: 'sent', result: null });
    await report(d.uniqueId, { result: 'Restore OK', blocked: 'false' });
    expect((await logOf(d.id))[0]).toMatchObject({ status: 'confirmed', result: 'Restore OK' });
  });

  it('a queued command is cancelled by DELETE /api/commands/log/:id; a sent one cannot be', async () => {
    const d = await device('Cancel');
    const { row: user, client } = await makeUser(server, 'cmdlog-cancel@test');
    expect((await admin.post('/api/permissions', { userId: user.id, deviceId: d.id })).status).toBe(204);
    const sent = await client.post<SendAnswer>('/api/commands/send', { deviceId: d.id, type: 'engineStop' });
    expect(sent.json.commandLog.userId).toBe(user.id);
    const id = sent.json.commandLog.id;

    const stranger = await makeUser(server, 'cmdlog-stranger@test');
    const refused = await stranger.client.delete(`/api/commands/log/${id}`);
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/^Device access denied/);
    expect((await stranger.client.get(`/api/commands/log?deviceId=${d.id}`)).text).toMatch(/^Device access denied/);
    const ro = await makeUser(server, 'cmdlog-ro@test', { readonly: 1 });
    expect((await admin.post('/api/permissions', { userId: ro.row.id, deviceId: d.id })).status).toBe(204);
    expect((await ro.client.get(`/api/commands/log?deviceId=${d.id}`)).status).toBe(200);
    expect((await ro.client.delete(`/api/commands/log/${id}`)).text).toMatch(/^Account is readonly/);
    expect((await admin.delete('/api/commands/log/987654321')).status).toBe(404);

    const cancelled = await client.delete<CommandLogEntry>(`/api/commands/log/${id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toMatchObject({ id, status: 'failed', reason: 'cancelled' });
    expect(cancelled.json.failedTime).not.toBeNull();
    expect(await db().selectFrom('commandsQueue').select('id').where('deviceId', '=', d.id).execute()).toEqual([]);
    expect(await report(d.uniqueId)).toBe('');
    const again = await client.delete(`/api/commands/log/${id}`);
    expect(again.status).toBe(400);
    expect(again.text).toMatch(/^Command not pending/);

    await client.post('/api/commands/send', { deviceId: d.id, type: 'custom', attributes: { data: 'X' } });
    expect(await report(d.uniqueId)).toBe('X');
    const [delivered] = await logOf(d.id);
    expect((await client.delete(`/api/commands/log/${delivered!.id}`)).text).toMatch(/^Command not pending/);
  });

  it('GET /api/commands/log: deviceId required, newest first, limit', async () => {
    const d = await device('List');
    for (const data of ['A', 'B', 'C']) await admin.post('/api/commands/send', { deviceId: d.id, type: 'custom', attributes: { data } });
    expect((await logOf(d.id)).map((e) => e.attributes.data)).toEqual(['C', 'B', 'A']);
    expect((await admin.get<CommandLogEntry[]>(`/api/commands/log?deviceId=${d.id}&limit=2`)).json).toHaveLength(2);
    expect((await admin.get('/api/commands/log')).text).toMatch(/^Device is required/);
    expect((await admin.get(`/api/commands/log?deviceId=${d.id}&limit=0`)).status).toBe(400);
  });

  it('speed guard, queued path: an engine stop waits while the vehicle is fast and goes with the first slow report', async () => {
    const d = await device('Fast OsmAnd');
    await report(d.uniqueId, { speed: kmh(60) });
    const stop = await admin.post<SendAnswer>('/api/commands/send', { deviceId: d.id, type: 'engineStop' });
    expect(stop.status).toBe(202);
    expect(stop.json.commandLog).toMatchObject({ status: 'queued', reason: 'speed' });
    // Another command behind it is not held.
    await admin.post('/api/commands/send', { deviceId: d.id, type: 'custom', attributes: { data: 'PING' } });
    expect(await report(d.uniqueId, { speed: kmh(55) })).toBe('PING');
    expect(await report(d.uniqueId, { speed: kmh(21) })).toBe('');
    expect((await logOf(d.id))[1]).toMatchObject({ type: 'engineStop', status: 'queued', reason: 'speed' });
    // At the limit (20 km/h) it goes.
    expect(await report(d.uniqueId, { speed: kmh(19.9) })).toBe('engineStop');
    expect((await logOf(d.id))[1]).toMatchObject({ type: 'engineStop', status: 'sent', reason: null });
    expect(await report(d.uniqueId, { speed: kmh(5) })).toBe('');
  });

  it('speed guard: an engine stop queued while offline waits for speed once the device is back and fast', async () => {
    const d = await device('Back fast');
    // A saved command standing in for the lock (tarkan.changeNative) is an engine stop too.
    const saved = await create<{ id: number }>(admin, '/api/commands', { description: 'Relay', type: 'custom', attributes: { data: 'RELAY,1#', 'tarkan.changeNative': 'engineStop' } });
    const sent = await admin.post<SendAnswer>('/api/commands/send', { id: saved.id, deviceId: d.id });
    expect(sent.json.commandLog).toMatchObject({ status: 'queued', reason: 'offline', description: 'Relay' });
    expect(await report(d.uniqueId, { speed: kmh(80) })).toBe('');
    expect((await logOf(d.id))[0]).toMatchObject({ status: 'queued', reason: 'speed' });
    expect(await report(d.uniqueId, { speed: kmh(3) })).toBe('RELAY,1#');
    await report(d.uniqueId, { blocked: 'true' });
    expect((await logOf(d.id))[0]).toMatchObject({ status: 'confirmed' });
  });

  it('speed guard, live path: a connected fast vehicle gets no engine stop until a slow message; other commands go live', async () => {
    const d = await device('Fast live');
    await report(d.uniqueId, { speed: kmh(60) });
    const written: string[] = [];
    const unregister = delivery().registerLiveSender({
      send: async (target, command) => {
        if (target.id !== d.id) return false;
        written.push(command.type);
        return true;
      },
    });
    try {
      const stop = await admin.post<SendAnswer>('/api/commands/send', { deviceId: d.id, type: 'engineStop' });
      expect(stop.status).toBe(202);
      expect(stop.json.commandLog).toMatchObject({ status: 'queued', reason: 'speed' });
      expect(written).toEqual([]);
      const noQueue = await admin.post('/api/commands/send', { deviceId: d.id, type: 'engineStop', attributes: { noQueue: true } });
      expect(noQueue.status).toBe(400);
      expect(noQueue.text).toMatch(/^Vehicle moving - an engine stop waits until the vehicle is at or below 20 km\/h/);
      const live = await admin.post<{ commandLog: CommandLogEntry }>('/api/commands/send', { deviceId: d.id, type: 'positionSingle' });
      expect(live.status).toBe(200);
      expect(live.json.commandLog).toMatchObject({ status: 'sent', type: 'positionSingle' });
      expect(written).toEqual(['positionSingle']);

      // What the TCP listener does after each frame: take while hasQueued says so. That loop
      // must end while the engine stop waits (a take that hands nothing over clears hasQueued).
      const queue = delivery().queue;
      const pipeline = server.rastro.ctx.processing!.pipeline;
      const frame = async (speedKmh: number) => {
        const fix = { ...emptyFix('gt06', Number(timestamp()) * 1000), latitude: -23.5, longitude: -46.6, speed: speedKmh / 1.852 };
        const result = await pipeline.submit({ uniqueId: d.uniqueId, fix });
        expect(result.kind).toBe('stored');
        const taken: string[] = [];
        let takes = 0;
        while (queue.hasQueued(d.id) && takes++ < 20) {
          const row = await queue.take(d.id, null);
          if (row) taken.push(row.type);
        }
        expect(takes).toBeLessThan(20);
        return taken;
      };
      expect(await frame(45)).toEqual([]);
      // A command queued (e.g. through another instance) while the stop waits goes at once; the stop stays.
      await queue.enqueue({ deviceId: d.id, type: 'custom', textChannel: false, attributes: { data: 'PING' } });
      expect(await frame(40)).toEqual(['custom']);
      expect(queue.hasQueued(d.id)).toBe(false);
      expect(await frame(30)).toEqual([]);
      expect((await logOf(d.id)).find((e) => e.type === 'engineStop')).toMatchObject({ status: 'queued', reason: 'speed' });
      expect(await frame(12)).toEqual(['engineStop']);
      expect((await logOf(d.id)).find((e) => e.type === 'engineStop')).toMatchObject({ status: 'sent' });
      expect(queue.hasQueued(d.id)).toBe(false);

      // The server attribute engineStop.maxSpeed overrides the configured limit.
      await frame(60);
      await setServer(server, { attributes: JSON.stringify({ 'engineStop.maxSpeed': 70 }) });
      try {
        const allowed = await admin.post('/api/commands/send', { deviceId: d.id, type: 'engineStop' });
        expect(allowed.status).toBe(200);
        expect(written).toEqual(['positionSingle', 'engineStop']);
      } finally {
        await setServer(server, { attributes: '{}' });
      }
    } finally {
      unregister();
    }
  });

  it('live path: a device answering before the send is stored (same millisecond, or sooner than the row) is acknowledged', async () => {
    const d = await device('Quick reply');
    await report(d.uniqueId);
    const pipeline = server.rastro.ctx.processing!.pipeline;
    const unregister = delivery().registerLiveSender({
      send: async (target, command) => {
        if (target.id !== d.id) return false;
        // The device answers while the send is still under way: its reply is stored first.
        const fix = { ...emptyFix('gt06', Number(timestamp()) * 1000), latitude: -23.5, longitude: -46.6 };
        fix.attributes = { result: `${command.type} OK` };
        expect((await pipeline.submit({ uniqueId: d.uniqueId, fix })).kind).toBe('stored');
        return true;
      },
    });
    try {
      const sent = await admin.post<{ commandLog: CommandLogEntry }>('/api/commands/send', { deviceId: d.id, type: 'getVersion' });
      expect(sent.status).toBe(200);
      await delivery().lifecycle.settled();
      const [entry] = await logOf(d.id);
      expect(entry).toMatchObject({ id: sent.json.commandLog.id, status: 'acknowledged', result: 'getVersion OK' });
      expect(Date.parse(entry!.acknowledgedTime!)).toBeGreaterThanOrEqual(Date.parse(entry!.sentTime!));
    } finally {
      unregister();
    }
  });

  it('a taken command the listener could not write is put back (same entry, queued again) or failed as unsupported', async () => {
    const d = await device('Put back');
    await report(d.uniqueId);
    const queue = delivery().queue;
    const first = await admin.post<SendAnswer>('/api/commands/send', { deviceId: d.id, type: 'custom', attributes: { data: 'AGAIN' } });
    const row = await queue.take(d.id, null);
    expect(row?.type).toBe('custom');
    expect((await logOf(d.id))[0]).toMatchObject({ id: first.json.commandLog.id, status: 'sent' });
    // The connection closed before the write: back in the queue, the same entry queued again.
    await queue.putBack(row!);
    expect(await logOf(d.id)).toEqual([expect.objectContaining({ id: first.json.commandLog.id, status: 'queued', sentTime: null })]);
    expect(await report(d.uniqueId)).toBe('AGAIN');
    expect((await logOf(d.id))[0]).toMatchObject({ id: first.json.commandLog.id, status: 'sent' });

    const second = await admin.post<SendAnswer>('/api/commands/send', { deviceId: d.id, type: 'requestPhoto' });
    await queue.unsupported((await queue.take(d.id, null))!);
    expect((await logOf(d.id))[0]).toMatchObject({ id: second.json.commandLog.id, status: 'failed', reason: 'unsupported' });
  });

  it('an engine resume cancels the engine stop still waiting (superseded)', async () => {
    const d = await device('Superseded');
    await report(d.uniqueId, { speed: kmh(90) });
    const stop = await admin.post<SendAnswer>('/api/commands/send', { deviceId: d.id, type: 'engineStop' });
    expect(stop.json.commandLog.reason).toBe('speed');
    const resume = await admin.post<SendAnswer>('/api/commands/send', { deviceId: d.id, type: 'engineResume' });
    expect(resume.status).toBe(202);
    const entries = await logOf(d.id);
    expect(entries.map((e) => [e.type, e.status, e.reason])).toEqual([
      ['engineResume', 'queued', 'nextMessage'],
      ['engineStop', 'failed', 'superseded'],
    ]);
    expect(await report(d.uniqueId, { speed: kmh(5) })).toBe('engineResume');
    expect(await report(d.uniqueId, { speed: kmh(5) })).toBe('');
  });
});

describe.each(backends)('command timeouts (%s)', (backend) => {
  const env = { RASTRO_COMMAND_TIMEOUT: '1' };

  it('a sent command without a reply fails after RASTRO_COMMAND_TIMEOUT, also when the instance that sent it is gone', async () => {
    const owner = await startTestServer(backend, env);
    let sender: TestServer | null = null;
    let after: TestServer | null = null;
    try {
      // The owner holds the database; its own job is stopped so that only the others act.
      await commandDelivery(owner.rastro.ctx).lifecycle.stop();
      const admin = await owner.admin();
      const uniqueId = uid('timeout');
      const d = await create<Device>(admin, '/api/devices', { name: 'Timeout', uniqueId });
      sender = await startTestServer(backend, env, { shareDatabaseWith: owner });
      await commandDelivery(sender.rastro.ctx).lifecycle.stop();
      await commandDelivery(sender.rastro.ctx).queue.refresh();
      await admin.post('/api/commands/send', { deviceId: d.id, type: 'engineStop' });
      await commandDelivery(sender.rastro.ctx).queue.refresh();
      const query = `/?id=${uniqueId}&lat=1&lon=2&timestamp=${timestamp()}&speed=0`;
      expect((await osmand(sender, query)).text).toBe('engineStop');
      await sender.close();
      sender = null;

      // A new instance starts after the timeout passed: the stored row is failed by its job.
      await new Promise((r) => setTimeout(r, 1_100));
      after = await startTestServer(backend, env, { shareDatabaseWith: owner });
      const [entry] = (await admin.get<CommandLogEntry[]>(`/api/commands/log?deviceId=${d.id}`)).json;
      expect(entry).toMatchObject({ status: 'failed', reason: 'timeout' });
      expect(Date.parse(entry!.failedTime!) - Date.parse(entry!.sentTime!)).toBeGreaterThanOrEqual(1_000);
    } finally {
      await after?.close();
      await sender?.close();
      await owner.close();
    }
  });

  it('an acknowledged engine stop no position confirms stays acknowledged, marked unconfirmed after the timeout', async () => {
    const server = await startTestServer(backend, env);
    try {
      const admin = await server.admin();
      const uniqueId = uid('unconfirmed');
      const d = await create<Device>(admin, '/api/devices', { name: 'Unconfirmed', uniqueId });
      const lifecycle = commandDelivery(server.rastro.ctx).lifecycle;
      const at = (extra: string) => `/?id=${uniqueId}&lat=1&lon=2&timestamp=${timestamp()}&speed=0${extra}`;
      await admin.post('/api/commands/send', { deviceId: d.id, type: 'engineStop' });
      expect((await osmand(server, at(''))).text).toBe('engineStop');
      await osmand(server, at('&result=OK'));
      await lifecycle.settled();
      await lifecycle.sweep(Date.now() + 1_500);
      const [entry] = (await admin.get<CommandLogEntry[]>(`/api/commands/log?deviceId=${d.id}`)).json;
      expect(entry).toMatchObject({ status: 'acknowledged', reason: 'unconfirmed', result: 'OK' });
      // Too late: a position showing the effect no longer confirms it.
      await osmand(server, at('&blocked=true'));
      await lifecycle.settled();
      expect((await admin.get<CommandLogEntry[]>(`/api/commands/log?deviceId=${d.id}`)).json[0]).toMatchObject({ status: 'acknowledged' });
      expect(lifecycle.isAwaiting(d.id)).toBe(false);
    } finally {
      await server.close();
    }
  });
});

// The timeout job reads the rows, not memory: a server restarted over the same SQLite file
// fails what the previous run sent (PostgreSQL is covered above with a second instance).
describe('command timeouts across a restart (sqlite file)', () => {
  it('fails on the next start what the previous run sent and never heard back about', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-cmd-restart-'));
    const env = { RASTRO_COMMAND_TIMEOUT: '1', RASTRO_DATA_DIR: dataDir };
    try {
      const first = await startTestServer('sqlite', env);
      const admin = await first.admin();
      const uniqueId = uid('restart');
      const d = await create<Device>(admin, '/api/devices', { name: 'Restart', uniqueId });
      await admin.post('/api/commands/send', { deviceId: d.id, type: 'custom', attributes: { data: 'X' } });
      expect((await osmand(first, `/?id=${uniqueId}&lat=1&lon=2`)).text).toBe('X');
      // close() removes the harness's own folder, not RASTRO_DATA_DIR given here.
      await first.close();
      await new Promise((r) => setTimeout(r, 1_100));
      const second = await startTestServer('sqlite', env);
      try {
        const client = await second.admin();
        expect((await client.get<CommandLogEntry[]>(`/api/commands/log?deviceId=${d.id}`)).json[0]).toMatchObject({ status: 'failed', reason: 'timeout' });
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

// Trackers on real TCP connections: the engine stop is written to the open connection (200)
// and the unit answers the moment it reads it, so its reply may be stored before the send's own
// row; the effect may also come before the reply. Either way the command ends confirmed with
// the reply's text.
describe.each(backends)('command lifecycle over TCP (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_GT06_PORT: String(await freePort()), RASTRO_TELTONIKA_PORT: String(await freePort()) });
    admin = await server.admin();
  });
  afterAll(async () => {
    await server?.close();
  });

  let imeis = 0;
  const imei = () => `86${String(process.pid % 100_000).padStart(5, '0')}${String(++imeis).padStart(8, '0')}`;
  const device = async (name: string) => {
    const uniqueId = imei();
    return { ...(await create<Device>(admin, '/api/devices', { name, uniqueId })), uniqueId };
  };
  const statusOf = async (deviceId: number) => (await admin.get<CommandLogEntry[]>(`/api/commands/log?deviceId=${deviceId}`)).json[0];
  /** Waits until the device's newest command reaches `status` (replies and effects are stored after their flush). */
  const reaches = async (deviceId: number, status: string) => {
    expect(await eventually(async () => (await statusOf(deviceId))?.status, status)).toBe(status);
    return (await statusOf(deviceId))!;
  };
  const latestAttributes = async (deviceId: number) => {
    const row = await server.rastro.ctx.storage.db.selectFrom('devices').select('positionId').where('id', '=', deviceId).executeTakeFirstOrThrow();
    const position = await server.rastro.ctx.storage.db.selectFrom('positions').select('attributes').where('id', '=', Number(row.positionId)).executeTakeFirstOrThrow();
    return JSON.parse(position.attributes) as Record<string, unknown>;
  };

  /** The next GT06 frame the server wrote (78 78 <length> … 0D 0A). */
  const gt06Frame = async (unit: ByteClient) => {
    const head = await unit.read(3);
    return Buffer.concat([head, await unit.read(head[2]! + 2)]);
  };
  const gt06Reply = (text: string, serial: number) => {
    const body = Buffer.from(text);
    return buildFrame(0x15, Buffer.concat([Buffer.from([4 + body.length, 0, 0, 0, 0]), body, Buffer.from([0, 2])]), serial);
  };
  const now = () => {
    const d = new Date(Date.now() - 2_000);
    return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()] as [number, number, number, number, number, number];
  };

  it('GT06: reply at once → acknowledged, status → confirmed; the lock survives location packets; effect before reply keeps the reply', async () => {
    const d = await device('GT06 lock');
    const unit = await ByteClient.connect(server.rastro.protocolPorts.gt06!.tcp);
    let serial = 0;
    const send = async (frame: Buffer) => {
      unit.send(frame);
      await gt06Frame(unit); // the server's ack: the packet is stored
    };
    try {
      await send(login(d.uniqueId, ++serial));
      await send(location22({ date: now(), latitude: -23.5, longitude: -46.6, kmh: 0 }, ++serial));
      await send(status13(0x46, ++serial)); // not blocked

      const stop = await admin.post<{ commandLog: CommandLogEntry }>('/api/commands/send', { deviceId: d.id, type: 'engineStop' });
      expect(stop.status).toBe(200);
      expect((await gt06Frame(unit)).subarray(9, -6).toString()).toBe('Relay,1#');
      unit.send(gt06Reply('Relay,1 Success!', ++serial)); // at once, before anything else
      await gt06Frame(unit);
      expect(await reaches(d.id, 'acknowledged')).toMatchObject({ id: stop.json.commandLog.id, result: 'Relay,1 Success!' });
      await send(status13(0xc6, ++serial)); // oil and electricity cut
      expect(await reaches(d.id, 'confirmed')).toMatchObject({ id: stop.json.commandLog.id, result: 'Relay,1 Success!' });

      // Location packets carry no lock state: the latest position keeps the status packet's.
      await send(location22({ date: now(), latitude: -23.5001, longitude: -46.6, kmh: 0 }, ++serial));
      expect(await latestAttributes(d.id)).toMatchObject({ blocked: true, sat: 9 });

      // This time the unit reports the effect before its reply: confirmed, and the reply is kept.
      const resume = await admin.post<{ commandLog: CommandLogEntry }>('/api/commands/send', { deviceId: d.id, type: 'engineResume' });
      expect(resume.status).toBe(200);
      expect((await gt06Frame(unit)).subarray(9, -6).toString()).toBe('Relay,0#');
      await send(status13(0x46, ++serial));
      await reaches(d.id, 'confirmed');
      await send(gt06Reply('Relay,0 Success!', ++serial));
      expect(await eventually(async () => (await statusOf(d.id))?.result, 'Relay,0 Success!')).toBe('Relay,0 Success!');
      const resumed = (await statusOf(d.id))!;
      expect(resumed).toMatchObject({ id: resume.json.commandLog.id, status: 'confirmed', result: 'Relay,0 Success!' });
      expect(Date.parse(resumed.acknowledgedTime!)).toBeGreaterThanOrEqual(Date.parse(resumed.confirmedTime!));
      expect(await latestAttributes(d.id)).toMatchObject({ blocked: false });
    } finally {
      await unit.close();
    }
  });

  it('Teltonika: setdigout answered at once → acknowledged; the next record with DOUT1 on → confirmed', async () => {
    const d = await device('Teltonika lock');
    const unit = await ByteClient.connect(server.rastro.protocolPorts.teltonika!.tcp);
    const record = (dout1: number) => tcpPacket(avlData(CODEC_8, [avlRecord(CODEC_8, {
      time: Date.now() - 1_000, latitude: -23.55, longitude: -46.63, satellites: 10, speedKmh: 0, io: [[239, 1, 0], [179, 1, dout1]],
    })]));
    const answer = (text: string) => {
      const body = Buffer.from(text, 'latin1');
      const length = Buffer.alloc(4);
      length.writeUInt32BE(body.length);
      return tcpPacket(avlData(CODEC_12, [Buffer.concat([Buffer.from([0x06]), length, body])]));
    };
    try {
      unit.send(imeiHandshake(d.uniqueId));
      expect(await unit.readHex(1)).toBe('01');
      unit.send(record(0));
      expect(await unit.readHex(4)).toBe('00000001');

      const stop = await admin.post<{ commandLog: CommandLogEntry }>('/api/commands/send', { deviceId: d.id, type: 'engineStop' });
      expect(stop.status).toBe(200);
      const head = await unit.read(8);
      const packet = await unit.read(head.readUInt32BE(4) + 4);
      expect(packet.subarray(7, -5).toString()).toBe('setdigout 1');
      unit.send(answer('DOUT1:1 DOUT2:0 Timeout:INFINITY'));
      expect(await reaches(d.id, 'acknowledged')).toMatchObject({ id: stop.json.commandLog.id, result: 'DOUT1:1 DOUT2:0 Timeout:INFINITY' });
      unit.send(record(1));
      expect(await unit.readHex(4)).toBe('00000001');
      expect(await reaches(d.id, 'confirmed')).toMatchObject({ id: stop.json.commandLog.id });
      expect(await latestAttributes(d.id)).toMatchObject({ out1: true, blocked: true });
    } finally {
      await unit.close();
    }
  });
});
