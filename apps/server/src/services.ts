// Background parts of the server besides HTTP: device ingest ports, the status sweeper,
// the realtime bus, the demo fleet. Each registers its own shutdown in `ctx.onClose`.
import type { AppContext } from './context.ts';
import { startProcessing, type Processing } from './processing/processing.ts';
import { startOsmandServer } from './ingest/osmand/osmand-server.ts';
import { startBus } from './realtime/bus.ts';
import { startDemo } from './demo/demo.ts';
import { commandDelivery } from './commands/command-delivery.ts';

export interface Services {
  osmandPort: number;
  /** The processing pipeline: other ingest paths (binary protocols, demo) submit through it. */
  processing: Processing;
}

export async function startServices(ctx: AppContext, _options: { httpPort: number }): Promise<Services> {
  // The bus first (closed last): everything below publishes live batches and changes.
  const bus = await startBus(ctx);
  ctx.onClose.push(() => bus.close());
  const processing = await startProcessing(ctx);
  ctx.processing = processing;
  // Queued commands: which devices have some is known before the first message arrives.
  const commands = commandDelivery(ctx).queue;
  await commands.start();
  ctx.onClose.push(() => commands.stop());
  let osmandPort = 0;
  // Port 0 disables the OsmAnd listener (documented); tests pass a free port.
  if (ctx.config.osmandPort !== 0) {
    // A queued command travels as the answer to the device's next report.
    const osmand = await startOsmandServer(ctx, processing.pipeline, {
      host: ctx.config.host,
      port: ctx.config.osmandPort,
      takeQueuedCommand: (entry) => commands.takeText(entry),
    });
    ctx.onClose.push(() => osmand.close());
    osmandPort = osmand.port;
  }
  // The demo fleet reports through the OsmAnd port, so it starts once that is bound.
  await startDemo(ctx, { osmandPort });
  return { osmandPort, processing };
}
