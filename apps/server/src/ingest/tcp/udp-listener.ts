// A protocol's UDP port (on the TCP port's number): one DeviceSession per remote address, kept
// while the device keeps sending and forgotten after the idle timeout. Acks and commands go back
// to the address the datagrams come from. A datagram is split into frames like a TCP stream;
// bytes left that make no whole frame are garbage. While a session may not take frames (busy, or
// the server's positions in flight at their cap) its frames wait in a short queue; beyond it they
// are dropped unacknowledged (the device sends them again).
import dgram from 'node:dgram';
import { FrameError, type ProtocolDefinition } from '../protocol.ts';
import { DeviceSession, type SessionChannel } from './device-session.ts';
import { nextFrameLength } from './framing.ts';
import type { Listener, ListenerHub } from './listener-hub.ts';
import { remoteName } from './tcp-listener.ts';

/** Frames held for one busy UDP session. */
const UDP_PENDING_MAX = 64;

export interface UdpListener extends Listener {
  readonly port: number;
}

class UdpPeer implements SessionChannel {
  readonly kind = 'udp' as const;
  readonly session: DeviceSession;
  lastSeen = 0;
  private pending: Buffer[] | null = null;

  constructor(
    private readonly hub: ListenerHub,
    protocol: ProtocolDefinition,
    private readonly socket: dgram.Socket,
    private readonly address: string,
    private readonly port: number,
    readonly key: string,
    private readonly forget: (peer: UdpPeer) => void,
  ) {
    this.session = new DeviceSession(hub, protocol, this, key);
  }

  /** Hands a frame to the session, or queues it while the session may not take it. */
  take(frame: Buffer, now: number): void {
    if (this.pending === null && this.session.mayTake()) {
      this.session.receive(frame, now);
      return;
    }
    if (this.session.closed) return;
    this.pending ??= [];
    if (this.pending.length >= UDP_PENDING_MAX) return;
    // Copied: the datagram's memory is not kept for a frame that waits.
    this.pending.push(Buffer.from(frame));
  }

  resume(): void {
    const pending = this.pending;
    if (!pending) return;
    while (pending.length > 0 && this.session.mayTake()) this.session.receive(pending.shift()!, Date.now());
    if (pending.length === 0 && this.pending === pending) this.pending = null;
  }

  write(data: Buffer): void {
    const failed = (error: Error | null) => {
      if (error) this.hub.log.debug({ err: error, remote: this.key }, 'UDP send failed');
    };
    try {
      this.socket.send(data, this.port, this.address, failed);
    } catch (error) {
      // The port closed meanwhile (shutdown).
      failed(error as Error);
    }
  }

  end(data?: Buffer): void {
    if (data && data.length > 0) this.write(data);
    this.forget(this);
  }

  destroy(): void {
    this.forget(this);
  }
}

export async function listenUdp(hub: ListenerHub, protocol: ProtocolDefinition, host: string, port: number): Promise<UdpListener> {
  const socket = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
  const peers = new Map<string, UdpPeer>();
  const forget = (peer: UdpPeer) => {
    if (peers.get(peer.key) === peer) peers.delete(peer.key);
    peer.session.detach();
  };

  socket.on('message', (datagram: Buffer, info: dgram.RemoteInfo) => {
    const now = Date.now();
    const key = remoteName(info.address, info.port);
    let peer = peers.get(key);
    if (!peer) {
      if (peers.size >= hub.settings.maxConnections) {
        hub.stats.refused++;
        hub.refusedWarning(protocol, key, 'UDP session');
        return;
      }
      peer = new UdpPeer(hub, protocol, socket, info.address, info.port, key, forget);
      peers.set(key, peer);
    }
    peer.lastSeen = now;
    const session = peer.session;
    let offset = 0;
    while (offset < datagram.length && !session.closed) {
      let length: number;
      try {
        length = nextFrameLength(protocol, datagram, offset, session);
        if (length === 0) throw new FrameError(`${protocol.name}: ${datagram.length - offset} bytes at the end of a datagram make no frame`);
      } catch (error) {
        session.fail(error, datagram.subarray(offset), now);
        return;
      }
      peer.take(datagram.subarray(offset, offset + length), now);
      offset += length;
    }
  });

  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind({ port, address: host }, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  socket.on('error', (error: Error) => hub.log.error({ err: error, protocol: protocol.name }, 'device UDP listener error'));

  // Forgetting idle sessions: one sweep for the whole port.
  const idleMs = hub.settings.idleMs;
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const peer of peers.values()) {
      if (now - peer.lastSeen >= idleMs) forget(peer);
    }
  }, Math.min(60_000, Math.max(100, Math.floor(idleMs / 4))));
  sweep.unref();

  return {
    protocol: protocol.name,
    port: socket.address().port,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweep);
        for (const peer of [...peers.values()]) forget(peer);
        socket.close(() => resolve());
      }),
  };
}
