// Builds the processing side of the server: device cache, storage writer, pipeline and
// status monitor, in the right order, with their shutdown registered on the context.
import type { AppContext } from '../context.ts';
import { DeviceCache } from './device-cache.ts';
import { resetStatuses, StatusMonitor } from './device-status.ts';
import { Pipeline } from './pipeline.ts';
import { PositionWriter, type WriterOptions } from './position-writer.ts';
import { defaultSteps } from './steps/index.ts';

export interface Processing {
  pipeline: Pipeline;
  devices: DeviceCache;
  writer: PositionWriter;
  status: StatusMonitor;
}

export interface ProcessingOptions {
  writer?: WriterOptions;
}

export async function startProcessing(ctx: AppContext, options: ProcessingOptions = {}): Promise<Processing> {
  // Statuses are reset only when this is the only instance; with a shared bus (Redis) another
  // instance may hold live devices.
  if (!ctx.config.redisUrl) await resetStatuses(ctx);
  const devices = new DeviceCache(ctx);
  await devices.start();
  const writer = new PositionWriter(ctx, options.writer);
  const pipeline = new Pipeline(ctx, devices, writer, defaultSteps());
  const status = new StatusMonitor(devices, writer, ctx.config.statusTimeout * 1000);
  status.start();
  ctx.onClose.push(async () => {
    status.stop();
    devices.stop();
    await writer.drain();
  });
  return { pipeline, devices, writer, status };
}
