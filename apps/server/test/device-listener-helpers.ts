// Helpers of the device listener suites: a tiny line protocol served by the real listener
// (ingest/tcp/), and TCP and UDP clients that read what the server writes back line by line.
// The protocol suites (GT06, Teltonika, …) can use the clients with their own bytes.
import dgram from 'node:dgram';
import net from 'node:net';
import { DecodeError, emptyFix, type DecodedFix } from '../src/ingest/decoded.ts';
import { FrameError, type ProtocolDefinition } from '../src/ingest/protocol.ts';
import type { TestServer } from './harness.ts';

const line = (text: string) => Buffer.from(`${text}\n`, 'latin1');

/**
 * One text line per frame (at most 64 bytes, control bytes are garbage):
 * - `ID,<uniqueId>` login: ack `OK`, reject `NO`;
 * - `P,<seq>,<lat>,<lon>` position: ack `OK,<seq>`; `IP,<uniqueId>,<seq>,<lat>,<lon>` names the device too (UDP);
 * - `M,<seq>,<n>` n positions in one frame, one ack `OK,<seq>`;
 * - `H` heartbeat: ack `HB`; `N` a frame that means nothing;
 * - `THROW` makes the decoder fail unexpectedly; anything else is a DecodeError.
 * Commands: `custom` → `CMD,<data>`; `engineStop` → `STOP`; any other type cannot be encoded.
 */
export function lineProtocol(name = 'line'): ProtocolDefinition {
  const fix = (now: number, lat: string | undefined, lon: string | undefined): DecodedFix => {
    const f = emptyFix(name, now);
    f.latitude = Number(lat);
    f.longitude = Number(lon);
    if (!Number.isFinite(f.latitude) || !Number.isFinite(f.longitude)) throw new DecodeError('bad coordinates');
    return f;
  };
  return {
    name,
    defaultPort: 0,
    transports: ['tcp', 'udp'],
    logAs: 'text',
    maxFrameBytes: 64,
    frameLength(buffer, offset) {
      for (let i = offset; i < buffer.length; i++) {
        const b = buffer[i]!;
        if (b === 0x0a) return i - offset + 1;
        if (b < 0x20 && b !== 0x0d) throw new FrameError('not a text line');
      }
      return 0;
    },
    decode(frame, _session, now) {
      const [kind, ...args] = frame.toString('latin1').replace(/\r?\n$/, '').split(',');
      switch (kind) {
        case 'ID':
          return { uniqueId: args[0], ack: line('OK'), reject: line('NO') };
        case 'P':
          return { fixes: [fix(now, args[1], args[2])], ack: line(`OK,${args[0]}`) };
        case 'IP':
          return { uniqueId: args[0], fixes: [fix(now, args[2], args[3])], ack: line(`OK,${args[1]}`), reject: line('NO') };
        case 'M': {
          const fixes = Array.from({ length: Number(args[1]) }, (_, i) => fix(now - 1000 * i, String(-23.5 - i / 1e4), '-46.6'));
          return { fixes, ack: line(`OK,${args[0]}`) };
        }
        case 'H':
          return { ack: line('HB') };
        case 'N':
          return {};
        case 'THROW':
          throw new Error('decoder bug');
        default:
          throw new DecodeError(`unknown line ${String(kind).slice(0, 10)}`);
      }
    },
    encodeCommand(command) {
      if (command.type === 'custom') return line(`CMD,${String(command.attributes.data ?? '')}`);
      if (command.type === 'engineStop') return line('STOP');
      return null;
    },
  };
}

/** A device on a TCP connection: sends bytes, reads the server's answers line by line. */
export class LineClient {
  private text = '';
  private readonly lines: string[] = [];
  private read = 0;
  private wake: (() => void) | null = null;
  /** Resolves when the server closed the connection (or it failed). */
  readonly closed: Promise<void>;
  isClosed = false;

  private constructor(readonly socket: net.Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.text += chunk;
      let nl: number;
      while ((nl = this.text.indexOf('\n')) >= 0) {
        this.lines.push(this.text.slice(0, nl));
        this.text = this.text.slice(nl + 1);
      }
      this.wake?.();
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => {
      socket.once('close', () => {
        this.isClosed = true;
        this.wake?.();
        resolve();
      });
    });
  }

  static connect(port: number): Promise<LineClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => {
        socket.off('error', reject);
        resolve(new LineClient(socket));
      });
      socket.once('error', reject);
    });
  }

  send(data: string | Buffer): void {
    this.socket.write(data);
  }

  /** Every line received so far. */
  get received(): readonly string[] {
    return this.lines;
  }

  /** The next line not read yet; rejects after `timeoutMs` or when the connection closes first. */
  async next(timeoutMs = 5_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (this.read >= this.lines.length) {
      if (this.isClosed) throw new Error('connection closed while waiting for a line');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no line within ${timeoutMs} ms (got ${JSON.stringify(this.lines)})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
    return this.lines[this.read++]!;
  }

  /** Waits for the server to close the connection; false if it is still open after `timeoutMs`. */
  async waitClosed(timeoutMs = 5_000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const result = await Promise.race([this.closed.then(() => true as const), timeout]);
    clearTimeout(timer);
    return result;
  }

  close(): Promise<void> {
    this.socket.end();
    return this.closed;
  }
}

/** A device over UDP: one socket (one remote address), answers collected as lines. */
export class UdpLineClient {
  readonly lines: string[] = [];
  private wake: (() => void) | null = null;

  private constructor(
    readonly socket: dgram.Socket,
    private readonly port: number,
  ) {
    socket.on('message', (message: Buffer) => {
      for (const l of message.toString('latin1').split('\n')) if (l) this.lines.push(l);
      this.wake?.();
    });
  }

  static async open(port: number): Promise<UdpLineClient> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return new UdpLineClient(socket, port);
  }

  send(text: string): void {
    this.socket.send(Buffer.from(text, 'latin1'), this.port, '127.0.0.1');
  }

  /** Waits until `count` lines arrived (or `timeoutMs`); returns them all. */
  async waitFor(count: number, timeoutMs = 5_000): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length < count && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
    return this.lines;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }
}

/**
 * Holds the writer's commits until `release()`: positions wait for their commit as they would
 * on a slow database. Returns how many commits started while held.
 */
export function holdCommits(server: TestServer): { release: () => void; held: () => number } {
  const store = server.rastro.ctx.processing!.writer.store;
  const original = store.commit.bind(store);
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let held = 0;
  store.commit = async (request) => {
    held++;
    await gate;
    return original(request);
  };
  return {
    release: () => {
      store.commit = original;
      open();
    },
    held: () => held,
  };
}

/** Polls `read` until it returns `expected` (or `timeoutMs`); returns the last value read. */
export async function eventually<T>(read: () => Promise<T> | T, expected: T, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (value !== expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25));
    value = await read();
  }
  return value;
}
