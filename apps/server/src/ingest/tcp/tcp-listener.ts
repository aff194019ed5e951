// A protocol's TCP port: one DeviceSession per connection. Bytes are split into frames as they
// arrive; the read buffer keeps only the start of the next frame (bounded by the protocol's
// maxFrameBytes), and while the session may not take frames (identifying, too many of its frames
// waiting for their commit, the server's positions in flight at their cap) the socket is paused:
// only what was already read stays in memory (the chunk being split, and what Node read before
// it stopped, up to the stream's high-water mark); the rest waits in the kernel and TCP flow
// control holds the device back. Idle connections are closed by the socket's own timer (Node
// keeps one timer list per duration, not one timer per socket).
import net from 'node:net';
import type { ProtocolDefinition } from '../protocol.ts';
import { DeviceSession, type SessionChannel } from './device-session.ts';
import { nextFrameLength } from './framing.ts';
import type { Listener, ListenerHub } from './listener-hub.ts';

/** Bytes a device may leave unread on its connection (acks and commands are small): past it, it is cut off. */
const MAX_UNREAD_BYTES = 256 * 1024;
/** After a polite close, how long the device has to take the last bytes. */
const END_GRACE_MS = 10_000;

export interface TcpListener extends Listener {
  readonly port: number;
}

/** `address:port` of a peer (`[v6]:port` for IPv6). */
export function remoteName(address: string | undefined, port: number | undefined): string {
  const a = address ?? '?';
  return a.includes(':') ? `[${a}]:${port ?? 0}` : `${a}:${port ?? 0}`;
}

class TcpConnection implements SessionChannel {
  readonly kind = 'tcp' as const;
  readonly session: DeviceSession;
  private buffer: Buffer | null = null;
  private offset = 0;
  private paused = false;
  private splitting = false;

  constructor(
    private readonly hub: ListenerHub,
    private readonly protocol: ProtocolDefinition,
    private readonly socket: net.Socket,
    remote: string,
    private readonly gone: (connection: TcpConnection) => void,
  ) {
    hub.stats.connections++;
    this.session = new DeviceSession(hub, protocol, this, remote);
    socket.setTimeout(hub.settings.idleMs);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('timeout', () => {
      hub.log.debug({ protocol: protocol.name, remote, uniqueId: this.session.uniqueId }, 'idle device connection closed');
      socket.destroy();
    });
    socket.on('error', (error: Error) => {
      hub.log.debug({ err: error, protocol: protocol.name, remote }, 'device connection error');
    });
    socket.once('close', () => this.onClose());
  }

  private onData(chunk: Buffer): void {
    if (this.session.closed) return;
    this.buffer = this.buffer === null ? chunk : Buffer.concat([this.buffer.subarray(this.offset), chunk]);
    this.offset = 0;
    this.split();
  }

  private split(): void {
    if (this.splitting) return;
    this.splitting = true;
    try {
      this.splitFrames();
    } finally {
      this.splitting = false;
    }
  }

  private splitFrames(): void {
    const session = this.session;
    const buffer = this.buffer;
    const now = Date.now();
    if (buffer !== null) {
      while (this.offset < buffer.length) {
        if (!session.mayTake()) {
          if (!session.closed) this.pause();
          return;
        }
        let length: number;
        try {
          length = nextFrameLength(this.protocol, buffer, this.offset, session);
        } catch (error) {
          session.fail(error, buffer.subarray(this.offset), now);
          return;
        }
        if (length === 0) break;
        const start = this.offset;
        this.offset += length;
        session.receive(buffer.subarray(start, this.offset), now);
      }
      if (this.offset >= buffer.length) {
        this.buffer = null;
        this.offset = 0;
      } else if (this.offset > 0) {
        // Only the start of the next frame stays, copied: the chunk it came in can go.
        this.buffer = Buffer.from(buffer.subarray(this.offset));
        this.offset = 0;
      }
    }
    // Not while the cap is reached: the session is queued then, and reads again on its turn.
    if (this.paused && session.mayTake()) {
      this.paused = false;
      this.socket.resume();
    }
  }

  private pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.socket.pause();
  }

  resume(): void {
    this.split();
  }

  write(data: Buffer): void {
    const socket = this.socket;
    if (socket.destroyed || !socket.writable) return;
    if (socket.writableLength > MAX_UNREAD_BYTES) {
      this.hub.log.debug({ protocol: this.protocol.name, remote: this.session.remote }, 'device does not read its connection; closed');
      socket.destroy();
      return;
    }
    socket.write(data);
  }

  end(data?: Buffer): void {
    const socket = this.socket;
    if (socket.destroyed) return;
    // Not waiting for the device to close its side: once the last bytes are out, it is over.
    socket.setTimeout(END_GRACE_MS);
    const done = () => socket.destroy();
    if (data && data.length > 0 && socket.writable) socket.end(data, done);
    else socket.end(done);
  }

  destroy(): void {
    this.socket.destroy();
  }

  private onClose(): void {
    this.hub.stats.connections--;
    this.buffer = null;
    this.session.detach();
    this.gone(this);
  }

  /** Shutdown: closes at once. */
  shutdown(): void {
    this.socket.destroy();
  }
}

export async function listenTcp(hub: ListenerHub, protocol: ProtocolDefinition, host: string, port: number): Promise<TcpListener> {
  const connections = new Set<TcpConnection>();
  const server = net.createServer({ noDelay: true }, (socket) => {
    const remote = remoteName(socket.remoteAddress, socket.remotePort);
    if (!hub.admitConnection(protocol, remote)) {
      socket.destroy();
      return;
    }
    connections.add(new TcpConnection(hub, protocol, socket, remote, (c) => connections.delete(c)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error: Error) => hub.log.error({ err: error, protocol: protocol.name }, 'device listener error'));
  return {
    protocol: protocol.name,
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const connection of connections) connection.shutdown();
      }),
  };
}
