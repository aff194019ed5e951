// Queued commands across two instances joined by the Redis bus (shared PostgreSQL schema): a
// command queued through instance A reaches the device reporting to instance B at once,
// because A's `commandQueued` change marks the device on B.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device } from '@rastro/domain/entities';
import { commandDelivery } from '../src/commands/command-delivery.ts';
import { backends, redisUrl, startTestServer, type TestServer } from './harness.ts';
import { create } from './visibility-fixtures.ts';
import { osmand, sleep } from './ingest-helpers.ts';

const skipReason = !redisUrl
  ? 'TEST_REDIS_URL is not set'
  : !backends.includes('postgres')
    ? 'TEST_DATABASE_URL is not set (two instances share one PostgreSQL schema)'
    : null;
if (skipReason) console.warn(`Commands over the realtime bus suite skipped: ${skipReason}.`);

describe.skipIf(skipReason !== null)('queued commands over the Redis bus (two instances, postgres)', () => {
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    a = await startTestServer('postgres', { REDIS_URL: redisUrl! });
    b = await startTestServer('postgres', { REDIS_URL: redisUrl! }, { shareDatabaseWith: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('queued on A, handed over by B on the next report (no re-read of the queue needed)', async () => {
    const adminA = await a.admin();
    const uniqueId = `cmd-bus-${process.pid}-${Date.now()}`;
    const device = await create<Device>(adminA, '/api/devices', { name: 'Bus device', uniqueId });
    const queueB = commandDelivery(b.rastro.ctx).queue;
    // B hears of the new device through the bus too; wait until it knows it.
    for (let i = 0; i < 100 && !b.rastro.ctx.processing?.devices.get(uniqueId); i++) await sleep(20);
    expect(queueB.hasQueued(device.id)).toBe(false);

    const res = await adminA.post('/api/commands/send', { deviceId: device.id, type: 'custom', attributes: { data: 'FROM-A' } });
    expect(res.status).toBe(202);
    for (let i = 0; i < 100 && !queueB.hasQueued(device.id); i++) await sleep(20);
    expect(queueB.hasQueued(device.id)).toBe(true);

    const answer = await osmand(b, `/?id=${uniqueId}&lat=1&lon=2&timestamp=${Math.floor(Date.now() / 1000)}`);
    expect(answer).toEqual({ status: 200, text: 'FROM-A' });
    const left = await a.rastro.ctx.storage.db.selectFrom('commandsQueue').select('id').where('deviceId', '=', device.id).execute();
    expect(left).toEqual([]);
    const events = await a.rastro.ctx.storage.db.selectFrom('events').selectAll().where('deviceId', '=', device.id).execute();
    expect(events.map((e) => e.type)).toEqual(['queuedCommandSent']);
    expect(queueB.hasQueued(device.id)).toBe(false);
  });
});
