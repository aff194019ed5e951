// Two server instances over one PostgreSQL schema, joined by the Redis realtime bus: live
// batches and changes made on one instance reach the sockets of the other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Position } from '@rastro/domain/entities';
import { backends, redisUrl, startTestServer, type TestServer } from './harness.ts';
import { LiveSocket, idsOf, isKey, livePosition, type Received } from './socket-client.ts';
import { insertDevice, link, userWithSession } from './socket-fixtures.ts';

const skipReason = !redisUrl
  ? 'TEST_REDIS_URL is not set'
  : !backends.includes('postgres')
    ? 'TEST_DATABASE_URL is not set (two instances share one PostgreSQL schema)'
    : null;
if (skipReason) console.warn(`Realtime bus suite skipped: ${skipReason}.`);

let uniq = 0;
const uid = (name: string) => `${name}-${process.pid}-${++uniq}`;
const carries = (positionId: number) => (m: Received) => isKey('positions')(m) && idsOf(m, 'positions', 'id').includes(positionId);

describe.skipIf(skipReason !== null)('realtime bus over Redis (two instances, postgres)', () => {
  let a: TestServer;
  let b: TestServer;
  const sockets: LiveSocket[] = [];
  const connect = async (server: TestServer, cookie: string | null) => {
    const s = await LiveSocket.open(server.url, { cookie });
    sockets.push(s);
    await s.next(isKey('positions'));
    return s;
  };

  beforeAll(async () => {
    a = await startTestServer('postgres', { REDIS_URL: redisUrl! });
    b = await startTestServer('postgres', { REDIS_URL: redisUrl! }, { shareDatabaseWith: a });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await b?.close();
    await a?.close();
  });

  it('relays live batches both ways, and each instance delivers its own batch once', async () => {
    expect(a.rastro.ctx.live.relay).not.toBeNull();
    expect(b.rastro.ctx.live.relay).not.toBeNull();
    const db = a.rastro.ctx.storage.db;
    const d = await insertDevice(db, uid('bus'));
    const onA = await connect(a, (await a.admin()).cookie);
    const onB = await connect(b, (await b.admin()).cookie);

    const p = livePosition(d);
    a.rastro.ctx.live.publish({ positions: [p] });
    expect(idsOf(await onB.next(carries(p.id)), 'positions')).toEqual([d]);
    expect(idsOf(await onA.next(carries(p.id)), 'positions')).toEqual([d]);

    const back = livePosition(d);
    b.rastro.ctx.live.publish({ positions: [back] });
    await onA.next(carries(back.id));
    await onB.next(carries(back.id));
    // A ignored the echo of its own batch: p reached A's socket exactly once.
    expect(onA.received.filter(carries(p.id))).toHaveLength(1);
    expect(onB.received.filter(carries(back.id))).toHaveLength(1);
  });

  it('a permission change on one instance changes the audience on the other', async () => {
    const db = a.rastro.ctx.storage.db;
    const d = await insertDevice(db, uid('bus-perm'));
    const barrier = await insertDevice(db, uid('bus-barrier'));
    const u = await userWithSession(a);
    await link(db, 'userDevice', u.id, barrier);
    const onB = await connect(b, u.cookie);
    const publishOnA = (positions: Position[]) => a.rastro.ctx.live.publish({ positions });

    publishOnA([livePosition(d)]);
    publishOnA([livePosition(barrier)]);
    expect(idsOf(await onB.next(isKey('positions')), 'positions')).toEqual([barrier]);

    // Linked through the API of instance A: B's socket starts receiving at once.
    const adminA = await a.admin();
    expect((await adminA.post('/api/permissions', { userId: u.id, deviceId: d })).status).toBe(204);
    const p = livePosition(d);
    publishOnA([p]);
    expect(idsOf(await onB.next(carries(p.id)), 'positions')).toEqual([d]);

    // Unlinked on A (change published by hand this time): B stops at once.
    await db.deleteFrom('userDevice').where('ownerId', '=', u.id).where('propertyId', '=', d).execute();
    a.rastro.ctx.changes.publish({ kind: 'permissions' });
    publishOnA([livePosition(d)]);
    publishOnA([livePosition(barrier)]);
    expect(idsOf(await onB.next(isKey('positions')), 'positions')).toEqual([barrier]);
  });

  it('closes on B the sockets of a user disabled on A', async () => {
    const u = await userWithSession(a);
    const onB = await connect(b, u.cookie);
    await a.rastro.ctx.storage.db.updateTable('users').set({ disabled: 1 }).where('id', '=', u.id).execute();
    a.rastro.ctx.changes.publish({ kind: 'user', id: u.id });
    expect(await onB.closed).toBe(1008);
  });
});
