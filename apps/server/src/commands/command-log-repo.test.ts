import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandLogRepo } from './command-log-repo.ts';
import { addDevice, command, openTestStorage, testBackends } from './command-log-fixtures.ts';

const T = 1_700_000_000_000;
const WINDOW = 120_000;

describe.each(testBackends)('command log repo (%s)', (backend) => {
  let storage: Awaited<ReturnType<typeof openTestStorage>>;
  let repo: CommandLogRepo;

  beforeAll(async () => {
    storage = await openTestStorage(backend);
    repo = new CommandLogRepo(storage.db);
  });
  afterAll(async () => {
    await storage?.remove();
  });

  it('a reply and an effect received in the very millisecond the command was sent count for it', async () => {
    const deviceId = await addDevice(storage);
    const sent = await repo.insertSent(command(deviceId, 'engineStop'), T);
    expect(await repo.acknowledge(deviceId, 'Relay,1 Success!', T, WINDOW)).toMatchObject({ id: sent.id, status: 'acknowledged', acknowledgedTime: T });
    expect(await repo.confirm(deviceId, true, T, WINDOW)).toBe(1);
    expect(await repo.findById(Number(sent.id))).toMatchObject({ status: 'confirmed', confirmedTime: T, result: 'Relay,1 Success!' });
    // Still nothing for one received before the send.
    const later = await repo.insertSent(command(deviceId, 'getVersion'), T + 10);
    expect(await repo.acknowledge(deviceId, 'stale', T + 9, WINDOW)).toBeUndefined();
    expect(await repo.findById(Number(later.id))).toMatchObject({ status: 'sent', result: null });
  });

  it('the queue stamps a taken command before it is written: the same rule applies', async () => {
    const deviceId = await addDevice(storage);
    const queued = await repo.insertQueued(command(deviceId, 'engineResume'), 9_001, 'offline', T);
    await repo.markSent(9_001, T + 5);
    expect(await repo.confirm(deviceId, false, T + 5, WINDOW)).toBe(1);
    expect(await repo.findById(Number(queued.id))).toMatchObject({ status: 'confirmed', sentTime: T + 5, confirmedTime: T + 5 });
  });

  it('a reply after the effect confirmed the command is stored on it: it stays confirmed', async () => {
    const deviceId = await addDevice(storage);
    const stop = await repo.insertSent(command(deviceId, 'engineStop'), T);
    const version = await repo.insertSent(command(deviceId, 'getVersion'), T + 1_000);
    // The position showing blocked comes first...
    expect(await repo.confirm(deviceId, true, T + 2_000, WINDOW)).toBe(1);
    // ...then the two replies, in order: the first is the engine stop's, the second the version's.
    expect(await repo.acknowledge(deviceId, 'Relay,1 Success!', T + 3_000, WINDOW)).toMatchObject({
      id: stop.id, status: 'confirmed', result: 'Relay,1 Success!', acknowledgedTime: T + 3_000, confirmedTime: T + 2_000,
    });
    expect(await repo.acknowledge(deviceId, 'V1.2', T + 4_000, WINDOW)).toMatchObject({ id: version.id, status: 'acknowledged', result: 'V1.2' });
    // It took its reply once: a further reply answers nothing.
    expect(await repo.acknowledge(deviceId, 'again', T + 5_000, WINDOW)).toBeUndefined();
    expect(await repo.findById(Number(stop.id))).toMatchObject({ result: 'Relay,1 Success!' });
  });

  it('a confirmed command waits for its reply only as long as a sent one would', async () => {
    const deviceId = await addDevice(storage);
    const stop = await repo.insertSent(command(deviceId, 'engineStop'), T);
    await repo.confirm(deviceId, true, T + 1_000, WINDOW);
    const version = await repo.insertSent(command(deviceId, 'getVersion'), T + WINDOW);
    // The engine stop's reply never came: past its timeout, the next reply is the version's.
    expect(await repo.acknowledge(deviceId, 'V1.2', T + WINDOW + 500, WINDOW)).toMatchObject({ id: version.id, status: 'acknowledged' });
    expect(await repo.findById(Number(stop.id))).toMatchObject({ status: 'confirmed', result: null, acknowledgedTime: null });
  });
});
