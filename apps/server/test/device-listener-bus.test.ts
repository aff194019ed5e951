// A command to a tracker connected to another instance (two instances over one PostgreSQL
// schema, joined by the Redis bus): instance A holds no connection, so it queues (202); its
// `commandQueued` change reaches B, which holds the device's connection and writes it at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device } from '@rastro/domain/entities';
import { backends, redisUrl, startTestServer, type TestServer } from './harness.ts';
import { create } from './visibility-fixtures.ts';
import { sleep } from './ingest-helpers.ts';
import { LineClient, lineProtocol } from './device-listener-helpers.ts';
import { startProtocolListener, type ProtocolListener } from '../src/ingest/tcp/protocol-listeners.ts';

const skipReason = !redisUrl
  ? 'TEST_REDIS_URL is not set'
  : !backends.includes('postgres')
    ? 'TEST_DATABASE_URL is not set (two instances share one PostgreSQL schema)'
    : null;
if (skipReason) console.warn(`Device listener over the realtime bus suite skipped: ${skipReason}.`);

describe.skipIf(skipReason !== null)('device listener commands over the Redis bus (two instances, postgres)', () => {
  let a: TestServer;
  let b: TestServer;
  let listenerB: ProtocolListener;

  beforeAll(async () => {
    a = await startTestServer('postgres', { REDIS_URL: redisUrl! });
    b = await startTestServer('postgres', { REDIS_URL: redisUrl! }, { shareDatabaseWith: a });
    listenerB = await startProtocolListener(b.rastro.ctx, lineProtocol(), 0, '127.0.0.1');
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('queued on A, written at once by B, which holds the connection', async () => {
    const adminA = await a.admin();
    const uniqueId = `listener-bus-${process.pid}-${Date.now()}`;
    const device = await create<Device>(adminA, '/api/devices', { name: 'Bus tracker', uniqueId });
    for (let i = 0; i < 100 && !b.rastro.ctx.processing?.devices.get(uniqueId); i++) await sleep(20);
    const client = await LineClient.connect(listenerB.ports.tcp);
    client.send(`ID,${uniqueId}\n`);
    expect(await client.next()).toBe('OK');

    const res = await adminA.post('/api/commands/send', { deviceId: device.id, type: 'custom', attributes: { data: 'VIA-BUS' } });
    expect(res.status).toBe(202);
    // No further frame from the device: the bus alone brings the command to its connection.
    expect(await client.next()).toBe('CMD,VIA-BUS');
    const left = await a.rastro.ctx.storage.db.selectFrom('commandsQueue').select('id').where('deviceId', '=', device.id).execute();
    expect(left).toEqual([]);
    await client.close();
  });
});
