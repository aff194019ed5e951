// GT06 (Concox) as a tracker speaks it: login 0x01 with the BCD IMEI, GPS+LBS locations 0x22
// (with ACC and odometer), GPS+LBS+status 0x16 when there is an alarm or the engine-cut state
// changed, status/heartbeats 0x13 with the terminal-info byte, and the 0x15 text reply to a
// 0x80 online command. The frames are built with the GT06 decoder's own framing and test
// builders (ingest/gt06/), the layout being the same both ways; the server answers every one
// of them with `78 78 05 <type> <serial> <crc> 0D 0A`.
import type { Transport } from '../../ingest/protocol.ts';
import { ALARM_CODES, MSG } from '../../ingest/gt06/constants.ts';
import { buildFrame } from '../../ingest/gt06/framing.ts';
import { CELL, alarmPacket, gpsBlock, login, status13, type GpsInput } from '../../ingest/gt06/gt06-vectors.ts';
import {
  ServerFrameError, commandAction, type DeviceCommand, type DeviceSpeaker, type OutFrame, type ServerMessage, type TrackerEncoder,
  type TrackerFix,
} from './encoder.ts';

/** The alarm byte of status packets for an alarm name (the server's table read backwards). */
const alarmCode = (alarm: string): number => Number(Object.entries(ALARM_CODES).find(([, name]) => name === alarm)?.[0] ?? 0);

/** Terminal info: bit 1 ACC (ignition), 2 charging, 6 GPS tracking on, 7 oil/electricity cut. */
const terminalInfo = (fix: TrackerFix): number => (fix.ignition ? 0x02 | 0x04 : 0) | 0x40 | (fix.blocked ? 0x80 : 0);

/** Voltage level 0–6 from the supply voltage (12 V and 24 V systems). */
const voltageLevel = (fix: TrackerFix): number => (fix.power > 11 ? 6 : fix.power > 10 ? 4 : 2);

function gps(fix: TrackerFix): GpsInput {
  const d = new Date(fix.time);
  return {
    date: [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()],
    latitude: fix.latitude,
    longitude: fix.longitude,
    kmh: Math.min(255, Math.round(fix.speedKmh)),
    course: Math.round(fix.course) % 360,
    satellites: Math.min(15, fix.satellites),
    valid: fix.satellites > 0,
  };
}

class Gt06Speaker implements DeviceSpeaker {
  readonly protocol = 'gt06';
  readonly maxFixesPerFrame = 1;
  readonly oneInFlight = false;
  private serial = 0;
  private reportedBlocked = false;

  constructor(
    private readonly imei: string,
    readonly transport: Transport,
  ) {}

  private next(): number {
    this.serial = (this.serial + 1) & 0xffff;
    return this.serial;
  }

  hello(): OutFrame {
    return { bytes: login(this.imei, this.next()), acked: true, fixes: 0 };
  }

  report(fixes: readonly TrackerFix[]): OutFrame {
    const fix = fixes[0]!;
    // A status packet says what changed (alarm, engine cut); the plain location does not carry it.
    if (fix.alarm || fix.blocked !== this.reportedBlocked) {
      this.reportedBlocked = fix.blocked;
      const alarm = fix.alarm ? alarmCode(fix.alarm) : 0;
      return { bytes: alarmPacket(MSG.GPS_LBS_STATUS, gps(fix), terminalInfo(fix), alarm, this.next()), acked: true, fixes: 1 };
    }
    const tail = Buffer.alloc(7);
    tail[0] = fix.ignition ? 1 : 0; // ACC; then upload at interval, real time (not re-uploaded)
    tail.writeUInt32BE(Math.round(fix.odometer) >>> 0, 3); // metres
    return { bytes: buildFrame(MSG.GPS_LBS_2, Buffer.concat([gpsBlock(gps(fix)), CELL, tail]), this.next()), acked: true, fixes: 1 };
  }

  heartbeat(fix: TrackerFix): OutFrame {
    return { bytes: status13(terminalInfo(fix), this.next(), voltageLevel(fix)), acked: true, fixes: 0 };
  }

  /** 0x15: length (server flag + text), the command's server flag, the text. */
  reply(command: DeviceCommand, result: string): OutFrame {
    const text = Buffer.from(result, 'latin1');
    const flag = Buffer.from(command.tag, 'hex');
    const content = Buffer.concat([Buffer.from([flag.length + text.length]), flag, text]);
    return { bytes: buildFrame(MSG.STRING, content, this.next()), acked: true, fixes: 0 };
  }

  serverFrameLength(buffer: Buffer, offset: number): number {
    if (buffer.length - offset < 4) return 0;
    const a = buffer[offset];
    if (a !== buffer[offset + 1] || (a !== 0x78 && a !== 0x79)) throw new ServerFrameError('not a GT06 frame');
    const total = a === 0x78 ? buffer[offset + 2]! + 5 : buffer.readUInt16BE(offset + 2) + 6;
    return buffer.length - offset >= total ? total : 0;
  }

  read(message: Buffer): ServerMessage {
    const start = message[0] === 0x78 ? 3 : 4;
    // An ack is the bare `78 78 05 <type> <serial> <crc> 0D 0A`.
    if (message[start] !== MSG.COMMAND_0) return message.length === 10 ? { kind: 'ack' } : { kind: 'ignore' };
    // 0x80: command length (server flag + text), 4-byte server flag, ASCII command.
    const length = message[start + 1]!;
    const flag = message.subarray(start + 2, start + 6);
    const text = message.subarray(start + 6, start + 2 + length).toString('latin1');
    return { kind: 'command', command: { action: commandAction(text), text, tag: flag.toString('hex') } };
  }
}

export const gt06Encoder: TrackerEncoder = {
  protocol: 'gt06',
  transports: ['tcp'],
  uniqueId: (index) => String(864_000_000_000_000 + index),
  speaker: (uniqueId, transport) => new Gt06Speaker(uniqueId, transport),
};
