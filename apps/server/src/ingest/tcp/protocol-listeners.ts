// Starts the device protocols of the registry (ingest/protocols.ts) on their ports: TCP, and
// UDP on the same number for the protocols that have it. `startProtocolListener` serves any
// ProtocolDefinition (tests pass a tiny protocol of their own); everything the listeners share
// (limits, sessions, commands, raw log) lives in the context's ListenerHub.
import type { AppContext } from '../../context.ts';
import type { ProtocolDefinition } from '../protocol.ts';
import { PROTOCOLS } from '../protocols.ts';
import { listenerHub, type Listener } from './listener-hub.ts';
import { listenTcp, type TcpListener } from './tcp-listener.ts';
import { listenUdp, type UdpListener } from './udp-listener.ts';

/** The ports a protocol listens on (0: not on that transport). */
export interface ListenerPorts {
  tcp: number;
  udp: number;
}

export interface ProtocolListener extends Listener {
  readonly ports: ListenerPorts;
}

/**
 * Serves `protocol` on `port` (0: a port the system picks; UDP then takes the same number).
 * Closed with the server, or earlier by `close()`.
 */
export async function startProtocolListener(ctx: AppContext, protocol: ProtocolDefinition, port: number, host = ctx.config.host): Promise<ProtocolListener> {
  const hub = listenerHub(ctx);
  let tcp: TcpListener | null = null;
  let udp: UdpListener | null = null;
  if (protocol.transports.includes('tcp')) tcp = await listenTcp(hub, protocol, host, port);
  if (protocol.transports.includes('udp')) {
    try {
      udp = await listenUdp(hub, protocol, host, tcp?.port ?? port);
    } catch (error) {
      await tcp?.close();
      throw error;
    }
  }
  const listener: ProtocolListener = {
    protocol: protocol.name,
    ports: { tcp: tcp?.port ?? 0, udp: udp?.port ?? 0 },
    async close() {
      hub.remove(listener);
      await Promise.all([tcp?.close(), udp?.close()]);
    },
  };
  hub.add(listener);
  return listener;
}

/** Starts every protocol of the registry whose port (RASTRO_<NAME>_PORT) is not 0; returns the bound ports by name. */
export async function startProtocolListeners(ctx: AppContext, protocols: readonly ProtocolDefinition[] = PROTOCOLS): Promise<Record<string, ListenerPorts>> {
  const ports: Record<string, ListenerPorts> = {};
  const started: ProtocolListener[] = [];
  for (const protocol of protocols) {
    const port = ctx.config.protocolPorts[protocol.name];
    const variable = `RASTRO_${protocol.name.toUpperCase()}_PORT`;
    if (port === undefined) {
      ctx.log.warn({ protocol: protocol.name }, `${protocol.name} is not started: config.ts has no ${variable}`);
      continue;
    }
    if (port === 0) continue;
    try {
      const listener = await startProtocolListener(ctx, protocol, port);
      started.push(listener);
      ports[protocol.name] = listener.ports;
      ctx.log.info({ protocol: protocol.name, ...listener.ports }, `${protocol.name} devices on port ${port} (${protocol.transports.join(', ')})`);
    } catch (error) {
      await Promise.all(started.map((l) => l.close()));
      throw new Error(`${variable}: cannot listen on port ${port} (${(error as Error).message})`, { cause: error });
    }
  }
  return ports;
}
