// A binary tracker for the protocol suites: a TCP connection (or a UDP socket) that sends raw
// bytes and reads exactly what the server writes back, byte for byte — acks, refusals and
// commands of binary protocols (Teltonika, GT06), which the line clients of
// device-listener-helpers.ts cannot split.
import dgram from 'node:dgram';
import net from 'node:net';

/** Waits for `ready()` or `timeoutMs`, re-checked whenever `subscribe`'s callback fires. */
async function until(ready: () => boolean, subscribe: (wake: () => void) => () => void, timeoutMs: number, what: () => string): Promise<void> {
  if (ready()) return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`${what()} within ${timeoutMs} ms`));
    }, timeoutMs);
    const unsubscribe = subscribe(() => {
      if (!ready()) return;
      clearTimeout(timer);
      unsubscribe();
      resolve();
    });
  });
}

export class ByteClient {
  private buffer = Buffer.alloc(0);
  private readonly listeners = new Set<() => void>();
  isClosed = false;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      for (const l of [...this.listeners]) l();
    });
    socket.on('error', () => undefined);
    socket.once('close', () => {
      this.isClosed = true;
      for (const l of [...this.listeners]) l();
    });
  }

  static connect(port: number): Promise<ByteClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => {
        socket.off('error', reject);
        resolve(new ByteClient(socket));
      });
      socket.once('error', reject);
    });
  }

  private subscribe = (wake: () => void) => {
    this.listeners.add(wake);
    return () => this.listeners.delete(wake);
  };

  send(bytes: Buffer | string): void {
    this.socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'hex') : bytes);
  }

  /** Bytes received and not read yet. */
  get pending(): Buffer {
    return this.buffer;
  }

  /** The next `n` bytes; rejects after `timeoutMs`, or when the connection closes before they came. */
  async read(n: number, timeoutMs = 5_000): Promise<Buffer> {
    await until(() => this.buffer.length >= n || this.isClosed, this.subscribe, timeoutMs, () => `no ${n} bytes (got ${this.buffer.toString('hex')})`);
    if (this.buffer.length < n) throw new Error(`connection closed after ${this.buffer.toString('hex') || 'nothing'} while waiting for ${n} bytes`);
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return out;
  }

  /** The next `n` bytes as hex. */
  async readHex(n: number, timeoutMs?: number): Promise<string> {
    return (await this.read(n, timeoutMs)).toString('hex');
  }

  /** Waits for the server to close the connection; false if still open after `timeoutMs`. */
  async waitClosed(timeoutMs = 5_000): Promise<boolean> {
    try {
      await until(() => this.isClosed, this.subscribe, timeoutMs, () => 'not closed');
      return true;
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    if (this.isClosed) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.end();
    });
  }
}

/** A device over UDP (one local address): sends datagrams, keeps every datagram answered. */
export class ByteUdpClient {
  readonly received: Buffer[] = [];
  private readonly listeners = new Set<() => void>();

  private constructor(
    readonly socket: dgram.Socket,
    private readonly port: number,
  ) {
    socket.on('message', (message: Buffer) => {
      this.received.push(message);
      for (const l of [...this.listeners]) l();
    });
  }

  static async open(port: number): Promise<ByteUdpClient> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return new ByteUdpClient(socket, port);
  }

  send(bytes: Buffer): void {
    this.socket.send(bytes, this.port, '127.0.0.1');
  }

  /** Waits until `count` datagrams came back (or `timeoutMs`); returns them all as hex. */
  async waitFor(count: number, timeoutMs = 5_000): Promise<string[]> {
    const subscribe = (wake: () => void) => {
      this.listeners.add(wake);
      return () => this.listeners.delete(wake);
    };
    await until(() => this.received.length >= count, subscribe, timeoutMs, () => `not ${count} datagrams`).catch(() => undefined);
    return this.received.map((b) => b.toString('hex'));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }
}
