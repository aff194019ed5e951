// H02 (Sinotrack and clones) as a tracker speaks it: `*HQ,<id>,V1,hhmmss,A,ddmm.mmmm,N|S,
// dddmm.mmmm,E|W,knots,course,ddmmyy,<status>#` locations (answered `V4,V1,<time>`), `HTBT`
// heartbeats with the battery level (echoed), and the `V4,<instruction>,DONE,…` answer to an
// instruction such as `S20` (engine cut), over TCP or UDP. The status word uses negative
// logic (a bit at 0 means the condition holds), bits as ingest/h02/h02-status.ts reads them.
import type { Transport } from '../../ingest/protocol.ts';
import { ServerFrameError, commandAction, type DeviceCommand, type DeviceSpeaker, type OutFrame, type ServerMessage, type TrackerEncoder, type TrackerFix } from './encoder.ts';
import { kmhToKnots } from '../../demo/geo.ts';

/** Bits of the status word (0 = active): alarms, "ACC off", the fuel/electricity cut output. */
const STATUS_BIT = { sos: 1, overspeed: 2, accOff: 10, fuelCut: 27 } as const;
/** Longest server message the simulator accepts. */
const MAX_SERVER_FRAME = 1024;

const two = (n: number) => String(n).padStart(2, '0');

function hhmmss(d: Date): string {
  return `${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}`;
}

function ddmmyy(d: Date): string {
  return `${two(d.getUTCDate())}${two(d.getUTCMonth() + 1)}${two(d.getUTCFullYear() % 100)}`;
}

/** Degrees as (d)ddmm.mmmm with its hemisphere letter. */
function degreesMinutes(value: number, degreeDigits: number, positive: string, negative: string): string {
  const abs = Math.abs(value);
  let degrees = Math.floor(abs);
  let minutes = Number(((abs - degrees) * 60).toFixed(4));
  if (minutes >= 60) {
    degrees += 1;
    minutes -= 60;
  }
  return `${String(degrees).padStart(degreeDigits, '0')}${minutes.toFixed(4).padStart(7, '0')},${value < 0 ? negative : positive}`;
}

function status(fix: TrackerFix): string {
  let word = 0xffffffff;
  const clear = (bit: number) => (word &= ~(1 << bit));
  if (fix.alarm) clear(STATUS_BIT[fix.alarm]);
  if (!fix.ignition) clear(STATUS_BIT.accOff);
  if (fix.blocked) clear(STATUS_BIT.fuelCut);
  return (word >>> 0).toString(16).toUpperCase().padStart(8, '0');
}

/** The location fields shared by V1 and V4: time, validity, coordinates, speed, course, date, status. */
function locationFields(fix: TrackerFix): string {
  const d = new Date(fix.time);
  return [
    hhmmss(d),
    fix.satellites > 0 ? 'A' : 'V',
    degreesMinutes(fix.latitude, 2, 'N', 'S'),
    degreesMinutes(fix.longitude, 3, 'E', 'W'),
    kmhToKnots(fix.speedKmh).toFixed(2),
    String(Math.round(fix.course) % 360),
    ddmmyy(d),
    status(fix),
  ].join(',');
}

class H02Speaker implements DeviceSpeaker {
  readonly protocol = 'h02';
  readonly maxFixesPerFrame = 1;
  readonly oneInFlight = false;

  constructor(
    private readonly id: string,
    readonly transport: Transport,
  ) {}

  private frame(text: string, acked: boolean, fixes: number): OutFrame {
    return { bytes: Buffer.from(`*HQ,${this.id},${text}#`, 'ascii'), acked, fixes };
  }

  hello(): null {
    return null;
  }

  report(fixes: readonly TrackerFix[]): OutFrame {
    return this.frame(`V1,${locationFields(fixes[0]!)}`, true, 1);
  }

  heartbeat(fix: TrackerFix): OutFrame {
    return this.frame(`HTBT,${Math.round(Math.min(100, Math.max(0, (fix.power - 10) * 25)))}`, true, 0);
  }

  /** `V4,<instruction>,DONE,` then the location after the change (its status shows the cut). */
  reply(command: DeviceCommand, _result: string, fix: TrackerFix): OutFrame {
    return this.frame(`V4,${command.tag},DONE,${locationFields(fix)}`, false, 1);
  }

  serverFrameLength(buffer: Buffer, offset: number): number {
    let start = offset;
    while (start < buffer.length && (buffer[start] === 0x0d || buffer[start] === 0x0a)) start++;
    if (start < buffer.length && buffer[start] !== 0x2a) throw new ServerFrameError('not an H02 frame');
    const end = buffer.indexOf(0x23, start);
    if (end < 0) {
      if (buffer.length - offset > MAX_SERVER_FRAME) throw new ServerFrameError('H02 frame too long');
      return 0;
    }
    return end + 1 - offset;
  }

  read(message: Buffer): ServerMessage {
    const text = message.toString('ascii').trim().replace(/^\*/, '').replace(/#$/, '');
    const [, , instruction = '', ...rest] = text.split(',');
    // The server's answers: `V4,V1,<time>` to a location, the heartbeat echoed (`R12` where enabled).
    if ((instruction === 'V4' && rest[0] === 'V1') || instruction === 'HTBT' || instruction === 'R12') return { kind: 'ack' };
    if (instruction === 'V4' || instruction === '') return { kind: 'ignore' };
    const payload = [instruction, ...rest].join(',');
    return { kind: 'command', command: { action: commandAction(payload), text: payload, tag: instruction } };
  }
}

export const h02Encoder: TrackerEncoder = {
  protocol: 'h02',
  transports: ['tcp', 'udp'],
  uniqueId: (index) => String(4_200_000_000 + index),
  speaker: (uniqueId, transport) => new H02Speaker(uniqueId, transport),
};
