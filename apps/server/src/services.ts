// Background parts of the server besides HTTP: device ingest ports, the status sweeper,
// the realtime bus, the demo fleet. Each registers its own shutdown in `ctx.onClose`.
import type { AppContext } from './context.ts';
import { startProcessing, type Processing } from './processing/processing.ts';
import { startOsmandServer } from './ingest/osmand/osmand-server.ts';
import { startBus } from './realtime/bus.ts';
import { startDemo } from './demo/demo.ts';
import { commandDelivery } from './commands/command-delivery.ts';
import { startProtocolListeners, type ListenerPorts } from './ingest/tcp/protocol-listeners.ts';
import { serverStatistics } from './statistics/server-statistics.ts';

export interface Services {
  osmandPort: number;
  /** Bound ports of the binary/text device protocols by name (those not turned off). */
  protocolPorts: Record<string, ListenerPorts>;
  /** The processing pipeline: other ingest paths (binary protocols, demo) submit through it. */
  processing: Processing;
}

export async function startServices(ctx: AppContext, _options: { httpPort: number }): Promise<Services> {
  // The bus first (closed last): everything below publishes live batches and changes.
  const bus = await startBus(ctx);
  ctx.onClose.push(() => bus.close());
  // Statistics are stored on shutdown after processing has drained (hooks run last first), so
  // the positions of its final flushes are counted too.
  const statistics = serverStatistics(ctx);
  statistics.start();
  ctx.onClose.push(() => statistics.stop());
  const processing = await startProcessing(ctx);
  processing.writer.onFlushed((batch) => statistics.stored(batch));
  ctx.processing = processing;
  // Queued commands: which devices have some is known before the first message arrives.
  const commands = commandDelivery(ctx).queue;
  await commands.start();
  ctx.onClose.push(() => commands.stop());
  // Command lifecycle: replies and effects read off the writer's flushes; timeouts by a periodic job.
  const lifecycle = commandDelivery(ctx).lifecycle;
  await lifecycle.start();
  ctx.onClose.push(() => lifecycle.stop());
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
  // GT06, Teltonika, H02, Suntech on their ports (RASTRO_<NAME>_PORT; 0 turns one off). After
  // the command queue: a tracker's first frame may collect its queued commands.
  const protocolPorts = await startProtocolListeners(ctx);
  // The demo fleet reports through the OsmAnd port, so it starts once that is bound.
  await startDemo(ctx, { osmandPort });
  return { osmandPort, protocolPorts, processing };
}
