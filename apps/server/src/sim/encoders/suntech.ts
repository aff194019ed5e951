// Suntech (ST300/ST4300 family) as a tracker speaks it, in the universal layout: `STT;` status
// reports with every header field (mask 3FFFFF), `ALT;` alerts (SOS, overspeed), `ALV;`
// keep-alives (the server echoes them), and `RES;` answers to `CMD;<id>;<group>;<action>`
// commands; text frames ending in a carriage return. Reports get no answer over TCP.
import type { Transport } from '../../ingest/protocol.ts';
import { ServerFrameError, type CommandAction, type DeviceCommand, type DeviceSpeaker, type OutFrame, type ServerMessage, type TrackerEncoder, type TrackerFix } from './encoder.ts';

/** Alert ids of the universal protocol. */
const ALERT_ID = { sos: 42, overspeed: 1 } as const;
const MODEL = '26';
const FIRMWARE = '1.0.11';
const MAX_SERVER_FRAME = 1024;
/** The universal command table's group;action codes the simulator carries out. */
const ACTIONS: Readonly<Record<string, CommandAction>> = {
  '04;01': 'engineStop', // output 1 on: the engine-cut relay
  '04;02': 'engineResume',
  '03;01': 'positionSingle',
  '03;03': 'rebootDevice',
};

const two = (n: number) => String(n).padStart(2, '0');
const signed = (v: number, digits: number) => `${v < 0 ? '-' : '+'}${Math.abs(v).toFixed(6).padStart(digits + 7, '0')}`;

class SuntechSpeaker implements DeviceSpeaker {
  readonly protocol = 'suntech';
  readonly maxFixesPerFrame = 1;
  readonly oneInFlight = false;
  private messageNumber = 0;

  constructor(
    private readonly id: string,
    readonly transport: Transport,
  ) {}

  private frame(text: string, fixes: number): OutFrame {
    return { bytes: Buffer.from(`${text}\r`, 'ascii'), acked: false, fixes };
  }

  /** Header and location fields, up to and including OUT_STATE. */
  private fields(type: string, fix: TrackerFix): string[] {
    const d = new Date(fix.time);
    return [
      type, this.id, '3FFFFF', MODEL, FIRMWARE, '1',
      `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}`,
      `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`,
      '02F2F402', '724', '05', '0F1D', '45',
      signed(fix.latitude, 2), signed(fix.longitude, 3),
      fix.speedKmh.toFixed(2), fix.course.toFixed(2), String(fix.satellites), fix.satellites > 0 ? '1' : '0',
      // Inputs and outputs as 8 binary digits, input 1 / output 1 last.
      `0000000${fix.ignition ? 1 : 0}`, `0000000${fix.blocked ? 1 : 0}`,
    ];
  }

  hello(): null {
    return null;
  }

  report(fixes: readonly TrackerFix[]): OutFrame {
    const fix = fixes[0]!;
    this.messageNumber = (this.messageNumber + 1) % 10_000;
    if (fix.alarm) return this.frame([...this.fields('ALT', fix), String(ALERT_ID[fix.alarm]), '0', ''].join(';'), 1);
    // MODE (1 idle / 2 active), report type (1 periodic), message number, backup and main voltages.
    const tail = [fix.ignition ? '2' : '1', '1', String(this.messageNumber).padStart(4, '0'), '4.1', fix.power.toFixed(2)];
    return this.frame([...this.fields('STT', fix), ...tail].join(';'), 1);
  }

  heartbeat(): OutFrame {
    return { ...this.frame(`ALV;${this.id}`, 0), acked: true };
  }

  reply(command: DeviceCommand, result: string): OutFrame {
    return this.frame(`RES;${this.id};${command.tag};${result}`, 0);
  }

  serverFrameLength(buffer: Buffer, offset: number): number {
    for (let i = offset; i < buffer.length; i++) {
      if (buffer[i] === 0x0d || buffer[i] === 0x0a) return i + 1 - offset;
    }
    if (buffer.length - offset > MAX_SERVER_FRAME) throw new ServerFrameError('Suntech frame too long');
    return 0;
  }

  read(message: Buffer): ServerMessage {
    const text = message.toString('ascii').trim();
    if (text === '') return { kind: 'ignore' };
    const [type, , ...rest] = text.split(';');
    if (type === 'ALV') return { kind: 'ack' }; // the keep-alive echoed
    if (type !== 'CMD') return { kind: 'ignore' };
    // `CMD;<id>;<group>;<action>[;params]`: the reply echoes group and action.
    const tag = rest.slice(0, 2).join(';');
    return { kind: 'command', command: { action: ACTIONS[tag] ?? 'custom', text: rest.join(';'), tag } };
  }
}

export const suntechEncoder: TrackerEncoder = {
  protocol: 'suntech',
  transports: ['tcp'],
  uniqueId: (index) => String(910_000_000 + index).padStart(10, '0'),
  speaker: (uniqueId, transport) => new SuntechSpeaker(uniqueId, transport),
};
