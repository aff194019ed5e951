// Builds the processing side of the server: device cache, storage writer, pipeline and
// status monitor, in the right order, with their shutdown registered on the context.
import type { AppContext } from '../context.ts';
import { DeviceCache } from './device-cache.ts';
import { resetStatuses, StatusMonitor } from './device-status.ts';
import { Pipeline } from './pipeline.ts';
import { PositionWriter, type WriterOptions } from './position-writer.ts';
import { SqliteWriteStore } from './sqlite-write-store.ts';
import { defaultSteps } from './steps/index.ts';
import { KyselyWriteStore, type WriteStore } from './write-store.ts';
import { motionSteps } from '../motion/motion-step.ts';
import { eventsEngine } from '../events/engine.ts';
import { InactivityMonitor } from '../events/inactivity.ts';

export interface Processing {
  pipeline: Pipeline;
  devices: DeviceCache;
  writer: PositionWriter;
  /** Where the writer's flushes go (other writers of this server share it). */
  store: WriteStore;
  status: StatusMonitor;
  inactivity: InactivityMonitor;
}

export interface ProcessingOptions {
  writer?: WriterOptions;
}

/**
 * SQLite: a writer thread with its own connection, so commits never block the event loop.
 * PostgreSQL: the pool, already asynchronous.
 */
async function openWriteStore(ctx: AppContext): Promise<WriteStore> {
  if (!ctx.storage.file) return new KyselyWriteStore(ctx);
  const store = new SqliteWriteStore(ctx.storage.file, ctx.log);
  await store.start();
  return store;
}

export async function startProcessing(ctx: AppContext, options: ProcessingOptions = {}): Promise<Processing> {
  // Statuses are reset only when this is the only instance; with a shared bus (Redis) another
  // instance may hold live devices.
  if (!ctx.config.redisUrl) await resetStatuses(ctx);
  const store = options.writer?.store ?? (await openWriteStore(ctx));
  const devices = new DeviceCache(ctx);
  await devices.start();
  const writer = new PositionWriter(ctx, { ...options.writer, store });
  // Events engine: settings, geofences (in memory) before the first message.
  const events = eventsEngine(ctx);
  await events.start();
  const statusEvents = events.lookup.config('event.status.enable', false);
  const pipeline = new Pipeline(ctx, devices, writer, defaultSteps(events), statusEvents);
  // Trips state machine: deviceMoving/deviceStopped and trip/stop segments (motion/), after the other steps.
  const motion = motionSteps(ctx);
  pipeline.steps.push(motion.step);
  const status = new StatusMonitor(devices, writer, ctx.config.statusTimeout * 1000, Date.now, statusEvents);
  status.start();
  const inactivity = new InactivityMonitor(ctx, devices, writer, events.lookup, events.lookup.config('event.inactivity.checkInterval', 900_000));
  inactivity.start();
  ctx.onClose.push(async () => {
    // The ports are closed by now (their hooks run first); messages they already took finish
    // their steps while the steps' services still run, then the writer commits them.
    await pipeline.settle();
    motion.stop();
    inactivity.stop();
    events.stop();
    events.lookup.stop();
    status.stop();
    devices.stop();
    await writer.drain();
    // After the last flush: the SQLite thread finishes what it has and closes its connection.
    await store.close();
  });
  return { pipeline, devices, writer, store, status, inactivity };
}
