// /api/socket over real WebSockets: authentication, the connect snapshot, per-user fan-out of
// live batches, keepalives, client messages, and audiences that follow changes at once.
//
// "Not delivered" is checked with a barrier: after the batch that must not arrive, a batch that
// must arrive is published; messages keep their order, so if the second one is the next
// positions message, the first was never sent.
import type { Kysely } from 'kysely';
import type { Position } from '@rastro/domain/entities';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/storage/schema.ts';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { LiveSocket, idsOf, isKey, liveDevice, livePosition, SocketRefused } from './socket-client.ts';
import { insertDevice, insertGroup, insertLatestPosition, link, unlink, userWithSession } from './socket-fixtures.ts';

let uniq = 0;
const uid = (name: string) => `${name}-${process.pid}-${++uniq}`;

describe.each(backends)('live socket (%s)', (backend) => {
  let server: TestServer;
  let db: Kysely<Database>;
  let admin: TestClient;
  const open: LiveSocket[] = [];

  const connect = async (options: Parameters<typeof LiveSocket.open>[1]) => {
    const s = await LiveSocket.open(server.url, options);
    open.push(s);
    await s.next(isKey('positions')); // the connect snapshot
    return s;
  };
  const publish = (positions: Position[]) => server.rastro.ctx.live.publish({ positions });

  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_SOCKET_KEEPALIVE_MS: '200' });
    db = server.rastro.ctx.storage.db;
    admin = await server.admin();
  });
  afterEach(() => {
    // The server never mixes keys in one message.
    for (const s of open) for (const m of s.received) expect(Object.keys(m.json).length).toBeLessThanOrEqual(1);
    for (const s of open.splice(0)) s.close();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses the upgrade with 401 without a valid session or token', async () => {
    await expect(LiveSocket.open(server.url)).rejects.toEqual(new SocketRefused(401));
    await expect(LiveSocket.open(server.url, { token: 'AAAAAAAAAAAAAAAAAAAAAA' })).rejects.toEqual(new SocketRefused(401));
    await expect(LiveSocket.open(server.url, { cookie: 'JSESSIONID=AAAAAAAAAAAAAAAAAAAAAAAA' })).rejects.toEqual(new SocketRefused(401));
  });

  it('applies the Origin check to cookie sessions', async () => {
    const u = await userWithSession(server);
    await expect(LiveSocket.open(server.url, { cookie: u.cookie, origin: 'http://evil.example' })).rejects.toEqual(new SocketRefused(401));
    const s = await connect({ cookie: u.cookie, origin: server.url });
    expect(s.closeCode).toBeNull();
  });

  it('sends the latest position of every visible device on connect', async () => {
    const mine = await insertDevice(db, uid('snap-mine'));
    const other = await insertDevice(db, uid('snap-other'));
    const p1 = await insertLatestPosition(db, mine, -23.55, -46.63);
    const p2 = await insertLatestPosition(db, other, -23.6, -46.7);
    const u = await userWithSession(server);
    await link(db, 'userDevice', u.id, mine);

    const s = await LiveSocket.open(server.url, { cookie: u.cookie });
    open.push(s);
    const first = await s.next();
    expect(Object.keys(first.json)).toEqual(['positions']);
    const positions = first.json.positions as Position[];
    expect(positions.map((p) => p.id)).toEqual([p1]);
    expect(positions[0]).toMatchObject({ deviceId: mine, latitude: -23.55, longitude: -46.63, protocol: 'osmand' });

    const a = await LiveSocket.open(server.url, { cookie: admin.cookie });
    open.push(a);
    const ids = ((await a.next()).json.positions as Position[]).map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining([p1, p2]));
  });

  it('accepts a login token in ?token=', async () => {
    const res = await admin.post('/api/session/token', new URLSearchParams({}));
    expect(res.status).toBe(200);
    const s = await LiveSocket.open(server.url, { token: res.text.trim() });
    open.push(s);
    expect(Object.keys((await s.next()).json)).toEqual(['positions']);
    // A token for a plain user sees only that user's devices.
    const u = await userWithSession(server);
    const d = await insertDevice(db, uid('tok'));
    await insertLatestPosition(db, d, -23.5, -46.6);
    const t = await LiveSocket.open(server.url, { token: server.rastro.ctx.tokens.issue(u.id, Date.now() + 60_000) });
    open.push(t);
    expect((await t.next()).json.positions).toEqual([]);
  });

  it('sends each user only what they see, one message per key per batch', async () => {
    const d1 = await insertDevice(db, uid('fan1'));
    const d2 = await insertDevice(db, uid('fan2'));
    const u = await userWithSession(server);
    await link(db, 'userDevice', u.id, d1);
    const su = await connect({ cookie: u.cookie });
    const sa = await connect({ cookie: admin.cookie });

    server.rastro.ctx.live.publish({ devices: [liveDevice(d1), liveDevice(d2)], positions: [livePosition(d1), livePosition(d2)] });
    expect(idsOf(await su.next(isKey('devices')), 'devices')).toEqual([d1]);
    expect(idsOf(await su.next(isKey('positions')), 'positions')).toEqual([d1]);
    expect(idsOf(await sa.next(isKey('devices')), 'devices')).toEqual([d1, d2]);
    expect(idsOf(await sa.next(isKey('positions')), 'positions')).toEqual([d1, d2]);

    const marker = livePosition(d1);
    publish([marker]);
    const next = await su.next(isKey('positions'));
    expect((next.json.positions as Position[]).map((p) => p.id)).toEqual([marker.id]);
    expect(su.received.filter(isKey('devices'))).toHaveLength(1);
  });

  it('serialises a position once per batch however many sockets receive it', async () => {
    const d = await insertDevice(db, uid('once'));
    const u1 = await userWithSession(server);
    const u2 = await userWithSession(server);
    await link(db, 'userDevice', u1.id, d);
    await link(db, 'userDevice', u2.id, d);
    const sockets = [
      await connect({ cookie: u1.cookie }),
      await connect({ cookie: u1.cookie }),
      await connect({ cookie: u2.cookie }),
      await connect({ cookie: admin.cookie }),
    ];
    let serialised = 0;
    const plain = livePosition(d);
    const counted = { ...plain, toJSON: () => (serialised++, plain) };
    publish([counted as Position]);
    const texts = await Promise.all(sockets.map(async (s) => (await s.next(isKey('positions'))).text));
    expect(serialised).toBe(1);
    expect(new Set(texts).size).toBe(1);
    expect(JSON.parse(texts[0]!)).toEqual({ positions: [plain] });
  });

  it('sends {} keepalives at the configured interval (55 s by default)', async () => {
    expect(loadConfig({}).socketKeepaliveMs).toBe(55_000);
    const u = await userWithSession(server);
    const s = await connect({ cookie: u.cookie });
    const started = Date.now();
    await s.next((m) => m.text === '{}', 2000);
    await s.next((m) => m.text === '{}', 2000);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('ignores client messages except {"logs": bool}', async () => {
    const d = await insertDevice(db, uid('logs'));
    const u = await userWithSession(server);
    await link(db, 'userDevice', u.id, d);
    const s = await connect({ cookie: u.cookie });
    s.send('{}');
    s.send('not json at all');
    s.send([1, 2, 3]);
    s.ws.send(Buffer.from([0, 1, 2]), { binary: true });
    s.send({ logs: true });
    const hub = server.rastro.app.socketHub;
    await expect.poll(() => hub.logSubscribers()).toContain(u.id);
    s.send({ logs: false });
    await expect.poll(() => hub.logSubscribers()).not.toContain(u.id);
    const p = livePosition(d);
    publish([p]);
    expect(idsOf(await s.next(isKey('positions')), 'positions', 'id')).toEqual([p.id]);
    expect(s.closeCode).toBeNull();
  });

  it('starts and stops sending a device the moment a user is linked or unlinked', async () => {
    const ctx = server.rastro.ctx;
    const d = await insertDevice(db, uid('perm'));
    const barrier = await insertDevice(db, uid('perm-barrier'));
    await insertLatestPosition(db, d, -23.51, -46.61);
    const u = await userWithSession(server);
    await link(db, 'userDevice', u.id, barrier);
    const s = await connect({ cookie: u.cookie });

    publish([livePosition(d)]);
    publish([livePosition(barrier)]);
    expect(idsOf(await s.next(isKey('positions')), 'positions')).toEqual([barrier]);

    await link(db, 'userDevice', u.id, d);
    ctx.changes.publish({ kind: 'permissions' });
    // Published at once, before the audience query could have finished: still delivered.
    const p = livePosition(d);
    publish([p]);
    // The newcomer first learns the device and its latest stored position.
    expect(idsOf(await s.next(isKey('devices')), 'devices')).toEqual([d]);
    expect(idsOf(await s.next(isKey('positions')), 'positions')).toEqual([d]);
    expect(idsOf(await s.next(isKey('positions')), 'positions', 'id')).toEqual([p.id]);

    await unlink(db, 'userDevice', u.id, d);
    ctx.changes.publish({ kind: 'permissions' });
    publish([livePosition(d)]);
    publish([livePosition(barrier)]);
    expect(idsOf(await s.next(isKey('positions')), 'positions')).toEqual([barrier]);
  });

  it('hears permission links made through POST/DELETE /api/permissions', async () => {
    const d = await insertDevice(db, uid('rest-perm'));
    const barrier = await insertDevice(db, uid('rest-barrier'));
    const u = await userWithSession(server);
    await link(db, 'userDevice', u.id, barrier);
    const s = await connect({ cookie: u.cookie });

    expect((await admin.post('/api/permissions', { userId: u.id, deviceId: d })).status).toBe(204);
    const p = livePosition(d);
    publish([p]);
    expect(idsOf(await s.next((m) => isKey('positions')(m) && idsOf(m, 'positions', 'id').includes(p.id)), 'positions')).toEqual([d]);

    expect((await admin.delete('/api/permissions', { userId: u.id, deviceId: d })).status).toBe(204);
    publish([livePosition(d)]);
    publish([livePosition(barrier)]);
    expect(idsOf(await s.next(isKey('positions')), 'positions')).toEqual([barrier]);
  });

  it('follows group links, device moves and device removal', async () => {
    const ctx = server.rastro.ctx;
    const parent = await insertGroup(db, uid('fleet'));
    const child = await insertGroup(db, uid('vans'), parent);
    const d = await insertDevice(db, uid('grouped'), child);
    const barrier = await insertDevice(db, uid('group-barrier'));
    const u = await userWithSession(server);
    await link(db, 'userDevice', u.id, barrier);
    const s = await connect({ cookie: u.cookie });

    await link(db, 'userGroup', u.id, parent);
    ctx.changes.publish({ kind: 'permissions' });
    publish([livePosition(d)]);
    expect(idsOf(await s.next(isKey('positions')), 'positions')).toEqual([d]);

    // A REST edit: everyone who sees the device gets the new row.
    await db.updateTable('devices').set({ name: 'Renamed van' }).where('id', '=', d).execute();
    ctx.changes.publish({ kind: 'device', id: d });
    const pushed = await s.next(isKey('devices'));
    expect(pushed.json.devices).toMatchObject([{ id: d, name: 'Renamed van' }]);

    // Moved out of the linked groups: no longer seen.
    await db.updateTable('devices').set({ groupId: null }).where('id', '=', d).execute();
    ctx.changes.publish({ kind: 'device', id: d });
    publish([livePosition(d)]);
    publish([livePosition(barrier)]);
    expect(idsOf(await s.next(isKey('positions')), 'positions')).toEqual([barrier]);

    // Deleted: the audience forgets it.
    await db.deleteFrom('devices').where('id', '=', barrier).execute();
    ctx.changes.publish({ kind: 'deviceRemoved', id: barrier });
    publish([livePosition(barrier)]);
    await link(db, 'userDevice', u.id, d);
    ctx.changes.publish({ kind: 'permissions' });
    publish([livePosition(d)]);
    expect(idsOf(await s.next(isKey('positions')), 'positions')).toEqual([d]);
  });

  it('delivers {events} only to the user they are for', async () => {
    const u1 = await userWithSession(server);
    const u2 = await userWithSession(server);
    const s1 = await connect({ cookie: u1.cookie });
    const s2 = await connect({ cookie: u2.cookie });
    const event = { id: 1, type: 'alarm', eventTime: new Date().toISOString(), deviceId: 1, positionId: 0, geofenceId: 0, maintenanceId: 0, attributes: { alarm: 'sos', message: 'SOS' } };
    server.rastro.ctx.live.publish({ events: [{ userId: u1.id, event }] });
    server.rastro.ctx.live.publish({ events: [{ userId: u2.id, event: { ...event, id: 2 } }] });
    expect((await s1.next(isKey('events'))).json.events).toEqual([event]);
    expect(((await s2.next(isKey('events'))).json.events as Array<{ id: number }>).map((e) => e.id)).toEqual([2]);
    expect(s1.pending().filter(isKey('events'))).toHaveLength(0);
  });

  it('closes the sockets of a disabled or deleted user', async () => {
    const ctx = server.rastro.ctx;
    const u = await userWithSession(server);
    const a = await connect({ cookie: u.cookie });
    const b = await connect({ cookie: u.cookie });
    await db.updateTable('users').set({ disabled: 1 }).where('id', '=', u.id).execute();
    ctx.changes.publish({ kind: 'user', id: u.id });
    expect(await a.closed).toBe(1008);
    expect(await b.closed).toBe(1008);
    await expect(LiveSocket.open(server.url, { cookie: u.cookie })).rejects.toEqual(new SocketRefused(401));

    const v = await userWithSession(server);
    const c = await connect({ cookie: v.cookie });
    ctx.changes.publish({ kind: 'userRemoved', id: v.id });
    expect(await c.closed).toBe(1008);
    // Someone else's change does not touch other sockets.
    const w = await userWithSession(server);
    const e = await connect({ cookie: w.cookie });
    ctx.changes.publish({ kind: 'user', id: w.id });
    await e.next((m) => m.text === '{}');
    expect(e.closeCode).toBeNull();
  });
});
