import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { emptyFix } from '../ingest/decoded.ts';
import type { DeviceEntry } from '../processing/device-cache.ts';
import { draftFromFix } from '../processing/position-draft.ts';
import type { FlushedBatch } from '../processing/position-writer.ts';
import { CommandLifecycle, sweepInterval } from './command-lifecycle.ts';
import { sendTime } from './command-delivery.ts';
import { CommandLogRepo } from './command-log-repo.ts';
import { addDevice, command, openTestStorage, testBackends } from './command-log-fixtures.ts';

describe('command lifecycle job', () => {
  it('runs a few times per timeout, at most every 5 s and at least every 250 ms', () => {
    expect(sweepInterval(120_000)).toBe(5_000);
    expect(sweepInterval(8_000)).toBe(2_000);
    expect(sweepInterval(1_000)).toBe(250);
    expect(sweepInterval(100)).toBe(250);
  });
});

describe('send time', () => {
  const ctxWith = (lastUpdate: number | null) =>
    ({ processing: { devices: { byId: (id: number) => (id === 7 ? { lastUpdate } : undefined) } } }) as unknown as AppContext;

  it('is now, stamped before the write, but after the message the device sent in the same millisecond', () => {
    expect(sendTime(ctxWith(null), 7, 1_000)).toBe(1_000);
    expect(sendTime(ctxWith(900), 7, 1_000)).toBe(1_000);
    // A reply carried by that message was received before the command went: it must not answer it.
    expect(sendTime(ctxWith(1_000), 7, 1_000)).toBe(1_001);
    expect(sendTime(ctxWith(1_000), 8, 1_000)).toBe(1_000);
    expect(sendTime({} as AppContext, 7, 1_000)).toBe(1_000);
  });
});

describe.each(testBackends)('command lifecycle observations (%s)', (backend) => {
  let storage: Awaited<ReturnType<typeof openTestStorage>>;
  let lifecycle: CommandLifecycle;
  let flushed: (batch: FlushedBatch) => void = () => undefined;

  beforeAll(async () => {
    storage = await openTestStorage(backend);
    const ctx = {
      storage,
      config: { commands: { timeout: 120 } },
      processing: { writer: { onFlushed: (listener: (batch: FlushedBatch) => void) => (flushed = listener) } },
      log: { info: () => undefined, warn: () => undefined },
    } as unknown as AppContext;
    lifecycle = new CommandLifecycle(ctx);
    await lifecycle.start();
  });
  afterAll(async () => {
    await lifecycle?.stop();
    await storage?.remove();
  });

  /** What the writer hands over after committing a latest position with `attributes` (and its commandResult). */
  const flush = (deviceId: number, at: number, attributes: Record<string, unknown>) => {
    const position = { ...draftFromFix(emptyFix('gt06', at), deviceId, at), attributes };
    const events = typeof attributes.result === 'string'
      ? [{ type: 'commandResult', eventTime: at, attributes: { result: attributes.result } }]
      : [];
    flushed({ items: [{ entry: { id: deviceId } as DeviceEntry, position, latest: true, events: events as never }], deviceEvents: [] });
  };

  it('a device answering a live send before its row is stored: the reply and the effect wait for the row', async () => {
    const deviceId = await addDevice(storage);
    const repo = new CommandLogRepo(storage.db);
    const sentAt = Date.now();
    let store!: () => void;
    const written = new Promise<void>((resolve) => (store = resolve));
    const live = written.then(() => repo.insertSent(command(deviceId, 'engineStop'), sentAt));
    lifecycle.sending(deviceId, live);
    // The bytes are out; the device's reply and its report of the cut are stored before the row.
    flush(deviceId, sentAt, { result: 'Relay,1 Success!' });
    flush(deviceId, sentAt + 1, { blocked: true });
    store();
    const row = await live;
    await lifecycle.settled();
    expect(await repo.findById(Number(row.id))).toMatchObject({
      status: 'confirmed', result: 'Relay,1 Success!', acknowledgedTime: sentAt, confirmedTime: sentAt + 1,
    });
  });

  it('a live send that failed holds nothing back', async () => {
    const deviceId = await addDevice(storage);
    const repo = new CommandLogRepo(storage.db);
    const earlier = await repo.insertSent(command(deviceId, 'getVersion'), Date.now() - 1_000);
    lifecycle.sending(deviceId, Promise.reject(new Error('database away')));
    flush(deviceId, Date.now(), { result: 'V1.2' });
    await lifecycle.settled();
    expect(await repo.findById(Number(earlier.id))).toMatchObject({ status: 'acknowledged', result: 'V1.2' });
  });
});
