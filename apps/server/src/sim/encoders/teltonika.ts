// Teltonika (FMB) as a tracker speaks it. TCP: the IMEI handshake (`00 0F` + 15 ASCII digits,
// answered 01 or 00), then codec 8 AVL packets each answered with the record count; a unit
// waits for that ack before the next packet and packs what it buffered meanwhile into it. UDP:
// the same records in a datagram with the IMEI in its header, answered per datagram. Commands
// are codec 12 (`setdigout 1`…) and the reply is a codec 12 response (type 06). Packets are
// assembled by the Teltonika decoder's shared builders (ingest/teltonika/teltonika-packets.ts).
import type { Transport } from '../../ingest/protocol.ts';
import { CODEC_12, CODEC_8, COMMAND_TYPE } from '../../ingest/teltonika/constants.ts';
import { avlData, avlRecord, imeiHandshake, tcpPacket, udpDatagram, type IoSize } from '../../ingest/teltonika/teltonika-packets.ts';
import { ServerFrameError, commandAction, type DeviceCommand, type DeviceSpeaker, type OutFrame, type ServerMessage, type TrackerEncoder, type TrackerFix } from './encoder.ts';

/** Codec 12 message type of a device's response (the server's commands are COMMAND_TYPE). */
const RESPONSE_TYPE = 0x06;
/** What an FMB puts in one packet at most (its records are ~50 bytes here; 1,280-byte packets). */
const RECORDS_PER_PACKET = 20;
/** Longest server message the simulator accepts. */
const MAX_SERVER_FRAME = 64 * 1024;

/** IO ids (Teltonika's FMB table) the records carry. */
const IO = {
  ignition: 239, movement: 240, gsmSignal: 21, dout1: 179, alarm: 236, externalVoltage: 66, batteryVoltage: 67, totalOdometer: 16,
} as const;

function record(fix: TrackerFix): Buffer {
  const io: Array<[number, IoSize, number]> = [
    [IO.ignition, 1, fix.ignition ? 1 : 0],
    [IO.movement, 1, fix.speedKmh > 0 ? 1 : 0],
    [IO.gsmSignal, 1, 4],
    [IO.dout1, 1, fix.blocked ? 1 : 0], // the engine-cut relay
    [IO.externalVoltage, 2, Math.round(fix.power * 1000)],
    [IO.batteryVoltage, 2, 4100],
    [IO.totalOdometer, 4, Math.round(fix.odometer) >>> 0],
  ];
  if (fix.alarm) io.push([IO.alarm, 1, 1]);
  return avlRecord(CODEC_8, {
    time: Math.round(fix.time), priority: fix.alarm ? 2 : 0, latitude: fix.latitude, longitude: fix.longitude,
    altitude: Math.round(fix.altitude), course: Math.round(fix.course) % 360, satellites: fix.satellites,
    speedKmh: Math.round(fix.speedKmh), event: fix.alarm ? IO.alarm : 0, io,
  });
}

class TeltonikaSpeaker implements DeviceSpeaker {
  readonly protocol = 'teltonika';
  readonly maxFixesPerFrame = RECORDS_PER_PACKET;
  readonly oneInFlight = true;
  private greeted = false;
  private packetId = 0;

  constructor(
    private readonly imei: string,
    readonly transport: Transport,
  ) {}

  hello(): OutFrame | null {
    if (this.transport === 'udp') return null;
    this.greeted = false;
    return { bytes: imeiHandshake(this.imei), acked: true, fixes: 0 };
  }

  report(fixes: readonly TrackerFix[]): OutFrame {
    const data = avlData(CODEC_8, fixes.map(record));
    if (this.transport === 'tcp') return { bytes: tcpPacket(data), acked: true, fixes: fixes.length };
    this.packetId = (this.packetId + 1) & 0xffff;
    return { bytes: udpDatagram(this.packetId, this.packetId & 0xff, this.imei, data), acked: true, fixes: fixes.length };
  }

  heartbeat(fix: TrackerFix): OutFrame {
    // FMB units have no keep-alive frame of their own: they send a record.
    return this.report([fix]);
  }

  reply(_command: DeviceCommand, result: string): OutFrame {
    const text = Buffer.from(result, 'latin1');
    const body = Buffer.alloc(5 + text.length);
    body[0] = RESPONSE_TYPE;
    body.writeUInt32BE(text.length, 1);
    text.copy(body, 5);
    return { bytes: tcpPacket(avlData(CODEC_12, [body])), acked: false, fixes: 0 };
  }

  serverFrameLength(buffer: Buffer, offset: number): number {
    const left = buffer.length - offset;
    if (this.transport === 'udp') return left; // one answer per datagram
    if (!this.greeted) return left >= 1 ? 1 : 0;
    if (left < 4) return 0;
    if (buffer.readUInt32BE(offset) !== 0) return 4; // an ack: the record count
    if (left < 8) return 0;
    const length = buffer.readUInt32BE(offset + 4);
    if (length > MAX_SERVER_FRAME) throw new ServerFrameError('codec 12 packet too long');
    return left >= length + 12 ? length + 12 : 0;
  }

  read(message: Buffer): ServerMessage {
    if (this.transport === 'udp') return { kind: 'ack' }; // length, packet id, 01, AVL packet id, count
    if (!this.greeted) {
      if (message[0] !== 1) return { kind: 'reject' };
      this.greeted = true;
      return { kind: 'ack' };
    }
    if (message.length === 4) return { kind: 'ack' };
    if (message[8] !== CODEC_12 || message[10] !== COMMAND_TYPE) return { kind: 'ignore' };
    const size = message.readUInt32BE(11);
    const text = message.subarray(15, 15 + size).toString('latin1');
    return { kind: 'command', command: { action: commandAction(text), text, tag: '' } };
  }
}

export const teltonikaEncoder: TrackerEncoder = {
  protocol: 'teltonika',
  transports: ['tcp', 'udp'],
  uniqueId: (index) => String(352_000_000_000_000 + index),
  speaker: (uniqueId, transport) => new TeltonikaSpeaker(uniqueId, transport),
};
