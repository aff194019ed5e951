// Teltonika decoding from raw bytes: every vector of traccar-reference.md A.10, Teltonika's
// documented UDP example, and packets built from the documented layout for what the
// reference has no vector of (codec 8E with 2-byte ids, codec 16, alarms, iButton, cells,
// values out of range, malformed packets).
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../decoded.ts';
import { FrameError, type ProtocolSession } from '../protocol.ts';
import { CODEC_12, CODEC_16, CODEC_8, CODEC_8E, MAX_FRAME_BYTES } from './constants.ts';
import { crc16Ibm } from './crc16-ibm.ts';
import {
  avlData, avlRecord, DOCUMENTED_UDP_DATAGRAM, hexBytes, imeiHandshake, REFERENCE_VECTORS, tcpPacket, udpDatagram, type RecordSpec,
} from './teltonika-packets.ts';
import { teltonikaProtocol } from './teltonika.ts';

const NOW = Date.UTC(2025, 6, 1, 12, 0, 0);
const IMEI = '356307042441013';

function session(transport: 'tcp' | 'udp' = 'tcp', uniqueId: string | null = IMEI): ProtocolSession {
  return { transport, remote: '127.0.0.1:40000', uniqueId, deviceAttributes: uniqueId ? {} : null, state: {} };
}

/** Frames the bytes as the listener would (the whole input must be one frame) and decodes it. */
function decode(bytes: Buffer, s = session()) {
  expect(teltonikaProtocol.frameLength(bytes, 0, s)).toBe(bytes.length);
  return teltonikaProtocol.decode(bytes, s, NOW);
}

const vector = (n: keyof typeof REFERENCE_VECTORS) => hexBytes(REFERENCE_VECTORS[n]);
const round5 = (v: number) => Math.round(v * 1e5) / 1e5;

/** A one-record codec 8 TCP packet. */
const packet8 = (spec: Partial<RecordSpec>, codec = CODEC_8) =>
  tcpPacket(avlData(codec, [avlRecord(codec, { time: Date.UTC(2025, 5, 30, 8), latitude: -23.55052, longitude: -46.633308, ...spec })]));

describe('Teltonika: reference vectors (traccar-reference.md A.10)', () => {
  it('#1 IMEI handshake: names the device, accepted with 01 and refused with 00', () => {
    const result = decode(vector(1), session('tcp', null));
    expect(result.uniqueId).toBe('123456789012345');
    expect(result.fixes).toBeUndefined();
    expect(result.ack).toEqual(Buffer.from([0x01]));
    expect(result.reject).toEqual(Buffer.from([0x00]));
  });

  it('#2 codec 8: one valid position, acknowledged with the record count', () => {
    const { fixes, ack } = decode(vector(2));
    expect(ack!.toString('hex')).toBe('00000001');
    expect(fixes).toHaveLength(1);
    const fix = fixes![0]!;
    expect(new Date(fix.fixTime).toISOString()).toBe('2013-08-31T15:00:41.710Z');
    expect(fix.deviceTime).toBe(fix.fixTime);
    expect(fix.valid).toBe(true);
    expect(round5(fix.latitude)).toBe(37.67434);
    expect(round5(fix.longitude)).toBe(21.43278);
    expect(fix.altitude).toBe(-4);
    expect(fix.speed).toBe(0);
    expect(fix.outdated).toBe(false);
    expect(fix.protocol).toBe('teltonika');
    expect(fix.clock).toBeUndefined(); // epoch ms: UTC
    expect(fix.attributes).toEqual({ priority: 0, sat: 9, event: 0, in1: false, motion: false, power: 12.835 });
  });

  it('#3 codec 8: no satellites → an invalid position', () => {
    const { fixes, ack } = decode(vector(3));
    expect(ack!.toString('hex')).toBe('00000001');
    const fix = fixes![0]!;
    expect(fix.valid).toBe(false);
    expect(fix.attributes.sat).toBe(0);
    expect(round5(fix.latitude)).toBe(25.06804);
    expect(round5(fix.longitude)).toBe(55.14434);
    expect(new Date(fix.fixTime).toISOString().slice(0, 10)).toBe('2018-03-05');
    expect(fix.attributes).toMatchObject({ in1: false, out1: false, blocked: false, out2: false, ignition: false, adc1: 0.032 });
  });

  it('#6 codec 8E: BLE tag data of the variable-length group (tag1Battery 3030)', () => {
    const { fixes, ack } = decode(vector(6));
    expect(ack!.toString('hex')).toBe('00000001');
    const fix = fixes![0]!;
    expect(fix.valid).toBe(true);
    expect(fix.attributes).toMatchObject({
      sat: 14, event: 10831, tag1Battery: 3030, tag1Rssi: -92, tag1LowBattery: 0, tag1Id: 'eb47706aa38255aa96f21a154e2d0055',
    });
    expect(round5(fix.latitude)).toBe(54.70086);
    expect(round5(fix.longitude)).toBe(25.25975);
  });

  it('#7 codec 13: a GTSL line gives driverUniqueId, dated by its timestamp; no ack', () => {
    const { fixes, ack } = decode(vector(7));
    expect(ack).toBeUndefined();
    expect(fixes).toHaveLength(1);
    const fix = fixes![0]!;
    expect(fix.outdated).toBe(true);
    expect(fix.attributes).toEqual({ driverUniqueId: '12749884' });
    expect(new Date(fix.deviceTime).toISOString()).toBe('2023-04-03T20:45:05.000Z');
  });

  it('#8 codec 12: a binary response is kept as hex in result; no ack', () => {
    const { fixes, ack } = decode(vector(8));
    expect(ack).toBeUndefined();
    expect(fixes![0]).toMatchObject({ outdated: true, deviceTime: NOW, attributes: { result: '010300010015d5c5' } });
  });

  it('#9 codec 12: a text response is kept, trimmed, in result', () => {
    const { fixes, ack } = decode(vector(9));
    expect(ack).toBeUndefined();
    expect(fixes![0]!.outdated).toBe(true);
    expect(fixes![0]!.attributes.result).toBe('UUUUww06.4;04.2;00.0;00.0;00.0;00.0;00.0;00.0;01.3;00.0;10.7;00.0;SSS');
  });

  it('#10 codec 16: two positions — once its CRC is right (the vector\'s own CRC is wrong, so it is refused as sent)', () => {
    const sent = vector(10);
    expect(() => decode(sent)).toThrow(/Bad Teltonika CRC 000009a5, expected 0000a6de/);
    const fixed = Buffer.from(sent);
    fixed.writeUInt32BE(crc16Ibm(fixed, 8, fixed.length - 4), fixed.length - 4);
    const { fixes, ack } = decode(fixed);
    expect(ack!.toString('hex')).toBe('00000002');
    expect(fixes).toHaveLength(2);
    expect(fixes!.map((f) => new Date(f.fixTime).toISOString())).toEqual(['2013-07-17T06:34:09.140Z', '2017-03-29T10:11:27.000Z']);
    expect(fixes!.map((f) => [round5(f.latitude), round5(f.longitude), f.valid])).toEqual([[54.69903, 25.26188, true], [54.66704, 25.25584, true]]);
    expect(fixes![0]!.attributes).toMatchObject({ sat: 11, in1: false, in2: false, tripOdometer: 0, io70: 297 });
  });

  it('#11 the FF keep-alive: a one-byte frame that needs nothing', () => {
    expect(decode(vector(11))).toEqual({});
  });
});

describe('Teltonika: UDP', () => {
  it('decodes Teltonika\'s documented datagram and answers 0005CAFE010501', () => {
    const { uniqueId, fixes, ack } = decode(hexBytes(DOCUMENTED_UDP_DATAGRAM), session('udp', null));
    expect(uniqueId).toBe('352093086403655');
    expect(ack!.toString('hex')).toBe('0005cafe010501');
    expect(fixes).toHaveLength(1);
    expect(fixes![0]).toMatchObject({ valid: false, attributes: { priority: 1, sat: 0, event: 1, rssi: 3, in1: true, power: 23.996 } });
    expect(new Date(fixes![0]!.fixTime).toISOString()).toBe('2019-06-13T06:23:26.000Z');
  });

  it('echoes the packet and AVL packet ids and counts every record, codec 8E included', () => {
    const records = [0, 1, 2].map((i) => avlRecord(CODEC_8E, { time: Date.UTC(2025, 0, 1, 0, i), latitude: 10 + i, longitude: 20, io: [[239, 1, 1]] }));
    const { uniqueId, fixes, ack } = decode(udpDatagram(0xbeef, 0x7f, IMEI, avlData(CODEC_8E, records)), session('udp', null));
    expect(uniqueId).toBe(IMEI);
    expect(ack!.toString('hex')).toBe('0005beef017f03');
    expect(fixes!.map((f) => f.latitude)).toEqual([10, 11, 12]);
    expect(fixes!.every((f) => f.attributes.ignition === true)).toBe(true);
  });

  it('splits datagrams by their length field and refuses one whose IMEI is empty', () => {
    const datagram = udpDatagram(1, 2, IMEI, avlData(CODEC_8, [avlRecord(CODEC_8, { time: 0, latitude: 0, longitude: 0 })]));
    expect(teltonikaProtocol.frameLength(datagram.subarray(0, 10), 0, session('udp'))).toBe(0);
    expect(teltonikaProtocol.frameLength(Buffer.concat([datagram, datagram]), datagram.length, session('udp'))).toBe(datagram.length);
    expect(() => teltonikaProtocol.frameLength(Buffer.from([0x00, 0x03]), 0, session('udp'))).toThrow(/too short/);
    const empty = udpDatagram(1, 2, '', avlData(CODEC_8, []));
    expect(() => teltonikaProtocol.decode(empty, session('udp', null), NOW)).toThrow(FrameError);
  });
});

describe('Teltonika: records built from the documented layout', () => {
  it('codec 8E: 2-byte ids and counts, every group size, the FMB ids mapped to Traccar keys', () => {
    const { fixes } = decode(packet8({
      priority: 1, altitude: 760, course: 271, satellites: 12, speedKmh: 100, event: 239,
      io: [
        [239, 1, 1], [240, 1, 1], [1, 1, 1], [179, 1, 1], [180, 1, 0], [21, 1, 4], [80, 1, 1], [113, 1, 87], [200, 1, 0],
        [66, 2, 12_412], [67, 2, 4_050], [68, 2, 120], [9, 2, 4_500], [181, 2, 12], [182, 2, 8], [24, 2, 100], [17, 2, -12], [72, 4, -55],
        [25, 2, 2_155], [12, 4, 1_500], [13, 2, 850],
        [16, 4, 123_456_789], [199, 4, 5_400], [241, 4, 72_410], [78, 8, 0x6b00001a2b3c4d01n], [1148, 2, 7],
      ],
    }, CODEC_8E));
    const fix = fixes![0]!;
    expect(fix.valid).toBe(true);
    expect(fix.altitude).toBe(760);
    expect(fix.course).toBe(271);
    expect(fix.speed).toBeCloseTo(53.99568, 5);
    expect(fix.attributes).toEqual({
      priority: 1, sat: 12, event: 239,
      ignition: true, motion: true, in1: true, out1: true, blocked: true, out2: false, rssi: 4, dataMode: 1, batteryLevel: 87, sleepMode: 0,
      power: 12.412, battery: 4.05, batteryCurrent: 0.12, adc1: 4.5, pdop: 1.2, hdop: 0.8, axisX: -12, temp1: -5.5,
      bleTemp1: 21.55, fuelUsed: 1.5, fuelConsumption: 8.5,
      odometer: 123_456_789, tripOdometer: 5_400, operator: 72_410, driverUniqueId: '014D3C2B1A00006B', io1148: 7,
    });
  });

  it('digital output 1 (179), which engineStop/engineResume switch, is the engine cut: `blocked`', () => {
    const attributes = (dout1: number) => decode(packet8({ io: [[179, 1, dout1], [180, 1, 1]] }, CODEC_8)).fixes![0]!.attributes;
    expect(attributes(1)).toMatchObject({ out1: true, blocked: true, out2: true });
    expect(attributes(0)).toMatchObject({ out1: false, blocked: false, out2: true });
    // Without DOUT1 in the record nothing is said about the cut.
    expect(decode(packet8({ io: [[180, 1, 1]] }, CODEC_8)).fixes![0]!.attributes.blocked).toBeUndefined();
  });

  it('codec 16: 2-byte ids with 1-byte counts and a generation type', () => {
    const { fixes, ack } = decode(packet8({ event: 385, generation: 7, io: [[385, 1, 3], [239, 1, 0], [66, 2, 13_000]] }, CODEC_16));
    expect(ack!.toString('hex')).toBe('00000001');
    expect(fixes![0]!.attributes).toMatchObject({ event: 385, io385: 3, ignition: false, power: 13 });
  });

  it('alarms: crash, towing, unplug, jamming, idling, green driving and auto geofence, several at once', () => {
    const alarm = (io: RecordSpec['io']) => decode(packet8({ io })).fixes![0]!.attributes.alarm;
    expect(alarm([[247, 1, 1]])).toBe('accident');
    expect(alarm([[246, 1, 1]])).toBe('tow');
    expect(alarm([[252, 1, 1]])).toBe('powerCut');
    expect(alarm([[249, 1, 1]])).toBe('jamming');
    expect(alarm([[251, 1, 1]])).toBe('idle');
    expect(alarm([[236, 1, 1]])).toBe('general');
    expect(alarm([[253, 1, 1]])).toBe('hardAcceleration');
    expect(alarm([[253, 1, 2]])).toBe('hardBraking');
    expect(alarm([[253, 1, 3]])).toBe('hardCornering');
    expect(alarm([[175, 1, 1]])).toBe('geofenceEnter');
    expect(alarm([[175, 1, 0]])).toBe('geofenceExit');
    expect(alarm([[247, 1, 0], [252, 1, 0], [253, 1, 0]])).toBeUndefined();
    expect(alarm([[247, 1, 2], [252, 1, 1]])).toBe('accident,powerCut');
  });

  it('priority 2 (panic) is kept as the priority attribute, not turned into an SOS alarm', () => {
    const fix = decode(packet8({ priority: 2 })).fixes![0]!;
    expect(fix.attributes.priority).toBe(2);
    expect(fix.attributes.alarm).toBeUndefined();
  });

  it('iButton 0 means no key; an empty variable element and unknown ones are kept as io<N> hex', () => {
    const fix = decode(packet8({
      io: [[78, 8, 0]],
      variableIo: [[256, Buffer.from('WVWZZZ1JZXW000001\0', 'latin1')], [281, Buffer.from('P0101,P0300')], [999, Buffer.from([0xde, 0xad])], [1000, Buffer.alloc(0)]],
    }, CODEC_8E)).fixes![0]!;
    expect(fix.attributes.driverUniqueId).toBeUndefined();
    expect(fix.attributes).toMatchObject({ vin: 'WVWZZZ1JZXW000001', dtcs: 'P0101 P0300', io999: 'dead', io1000: '' });
  });

  it('BLE tag data whose inner lengths do not add up is kept raw, and the record still decodes', () => {
    const fix = decode(packet8({
      io: [[239, 1, 1]],
      variableIo: [[10831, hexBytes('011c0001a4')], [548, hexBytes('01060001b70e0102')]], // a tag of 28 bytes announced, 3 there; a 1-byte battery
    }, CODEC_8E)).fixes![0]!;
    expect(fix.attributes).toMatchObject({ ignition: true, io10831: '011c0001a4', tag1Rssi: -73 });
    expect(fix.attributes.tag1Battery).toBeUndefined();
  });

  it('8-byte unknown values beyond 2^53 are kept exactly, as decimal text', () => {
    const fix = decode(packet8({ io: [[11, 8, 8_937_204_016_201_540_057n], [14, 8, 42]] })).fixes![0]!;
    expect(fix.attributes).toMatchObject({ io11: '8937204016201540057', io14: 42 });
  });

  it('the serving cell becomes the network when the operator is known; otherwise its parts stay io<N>', () => {
    const withOperator = decode(packet8({ io: [[205, 2, 0x1234], [206, 2, 0x0456], [241, 4, 72_410]] })).fixes![0]!;
    expect(withOperator.network).toEqual({
      radioType: 'gsm', considerIp: false,
      cellTowers: [{ cellId: 0x1234, locationAreaCode: 0x456, mobileCountryCode: 724, mobileNetworkCode: 10 }],
    });
    const lte = decode(packet8({ io: [[636, 4, 0x1_0203], [206, 2, 7], [241, 4, 26_201]] }, CODEC_8E)).fixes![0]!;
    expect(lte.network?.radioType).toBe('lte');
    expect(lte.network?.cellTowers?.[0]).toMatchObject({ cellId: 0x1_0203, mobileCountryCode: 262, mobileNetworkCode: 1 });
    const without = decode(packet8({ io: [[205, 2, 99], [206, 2, 7]] })).fixes![0]!;
    expect(without.network).toBeNull();
    expect(without.attributes).toMatchObject({ io205: 99, io206: 7 });
    // A cell id no number holds, or an operator that is no MCC + MNC: no network either.
    const huge = decode(packet8({ io: [[205, 8, 2n ** 60n], [206, 2, 7], [241, 4, 72_410]] })).fixes![0]!;
    expect(huge.network).toBeNull();
    expect(huge.attributes).toMatchObject({ io205: String(2n ** 60n), io206: 7 });
    expect(decode(packet8({ io: [[205, 2, 5], [206, 2, 7], [241, 8, 2 ** 62]] })).fixes![0]!.network).toBeNull();
  });

  it('a record that cannot be placed keeps its IO data at the last position (outdated, arrival time); every record is acknowledged', () => {
    const at = Date.UTC(2025, 0, 1);
    const records = [
      avlRecord(CODEC_8, { time: at, latitude: 1, longitude: 2 }),
      avlRecord(CODEC_8, { time: at, latitude: 91, longitude: 2, io: [[247, 1, 1]] }),
      avlRecord(CODEC_8, { time: at, latitude: 1, longitude: -200 }),
      avlRecord(CODEC_8, { time: -1, latitude: 1, longitude: 2 }),
      avlRecord(CODEC_8, { time: Date.UTC(2201, 0, 1), latitude: 1, longitude: 2 }),
      avlRecord(CODEC_8, { time: at, latitude: 1, longitude: 2, altitude: -32_000 }),
      avlRecord(CODEC_8, { time: at, latitude: 1, longitude: 2, course: 400 }),
      avlRecord(CODEC_8, { time: at, latitude: 1, longitude: 2, speedKmh: 65_000 }),
      avlRecord(CODEC_8, { time: Date.UTC(2025, 0, 2), latitude: 3, longitude: 4 }),
    ];
    const { fixes, ack } = decode(tcpPacket(avlData(CODEC_8, records)));
    expect(ack!.toString('hex')).toBe('00000009');
    expect(fixes!.map((f) => f.outdated)).toEqual([false, true, true, true, true, true, true, true, false]);
    for (const f of fixes!.filter((x) => x.outdated)) {
      expect(f).toMatchObject({ valid: false, latitude: 0, longitude: 0, altitude: 0, speed: 0, course: 0, deviceTime: NOW, fixTime: NOW });
    }
    expect(fixes![1]!.attributes.alarm).toBe('accident');
    expect(fixes![8]).toMatchObject({ latitude: 3, longitude: 4, fixTime: Date.UTC(2025, 0, 2) });
  });

  it('drops attribute values out of their range, and a GNSS speed (24) beyond any vehicle\'s', () => {
    const fix = decode(packet8({ speedKmh: 50, io: [[113, 1, 150], [182, 2, 65_000], [181, 2, 20_000], [16, 8, 2 ** 52], [24, 2, 65_000]] })).fixes![0]!;
    expect(fix.outdated).toBe(false);
    expect(fix.speed).toBeCloseTo(26.99784, 5);
    for (const key of ['batteryLevel', 'hdop', 'pdop', 'odometer']) expect(fix.attributes[key]).toBeUndefined();
  });

  it('drops data that arrives before the handshake (no device, no ack)', () => {
    expect(decode(vector(2), session('tcp', null))).toEqual({});
  });
});

describe('Teltonika: framing and malformed packets', () => {
  it('waits for whole frames, however the stream is cut', () => {
    const stream = Buffer.concat([imeiHandshake(IMEI), vector(2), Buffer.from([0xff]), vector(3)]);
    const s = session();
    const frames: number[] = [];
    for (let offset = 0; offset < stream.length;) {
      for (let cut = offset; cut < stream.length; cut++) {
        expect(teltonikaProtocol.frameLength(stream.subarray(0, cut), offset, s)).toBe(0);
        const length = teltonikaProtocol.frameLength(stream.subarray(0, cut + 1), offset, s);
        if (length > 0) {
          frames.push(length);
          offset += length;
          break;
        }
      }
    }
    expect(frames).toEqual([17, vector(2).length, 1, vector(3).length]);
  });

  it('refuses what cannot be a Teltonika frame', () => {
    const s = session();
    expect(() => teltonikaProtocol.frameLength(Buffer.from('GET / HTTP/1.1\r\n'), 0, s)).toThrow(FrameError); // "GE" as an IMEI length
    expect(() => teltonikaProtocol.frameLength(hexBytes('00000001'), 0, s)).toThrow(/preamble/);
    expect(() => teltonikaProtocol.frameLength(hexBytes('0000000000000002'), 0, s)).toThrow(/too short/);
    expect(() => teltonikaProtocol.frameLength(hexBytes('00000000ffffffff'), 0, s)).toThrow(new RegExp(`exceeds ${MAX_FRAME_BYTES}`));
    expect(() => teltonikaProtocol.frameLength(hexBytes('ffff'), 0, session('udp'))).toThrow(/exceeds/);
    expect(teltonikaProtocol.frameLength(hexBytes('0000000000001ff4'), 0, s)).toBe(0); // 8,180 + 12 = the largest: waits
  });

  it('refuses a bad CRC, different record counts, leftover bytes, short records and unknown codecs', () => {
    const good = vector(2);
    const badCrc = Buffer.from(good);
    badCrc[badCrc.length - 1]! ^= 1;
    expect(() => decode(badCrc)).toThrow(/Bad Teltonika CRC/);
    const record = avlRecord(CODEC_8, { time: 0, latitude: 0, longitude: 0 });
    expect(() => decode(tcpPacket(Buffer.concat([avlData(CODEC_8, [record]).subarray(0, -1), Buffer.from([2])])))).toThrow(/counts differ/);
    expect(() => decode(tcpPacket(Buffer.concat([avlData(CODEC_8, [record]), Buffer.from([0])])))).toThrow(/counts differ|after its records/);
    expect(() => decode(tcpPacket(avlData(CODEC_8, [record.subarray(0, 20)])))).toThrow(/Truncated/);
    expect(() => decode(tcpPacket(avlData(0x07, [record])))).toThrow(/Unsupported Teltonika codec 0x07/);
    expect(() => decode(tcpPacket(avlData(0x07, [])))).toThrow(/Unsupported/);
    expect(() => teltonikaProtocol.decode(hexBytes('00'), session(), NOW)).toThrow(FrameError);
    expect(() => teltonikaProtocol.decode(hexBytes('0000000000000003080000'), session(), NOW)).toThrow(FrameError);
  });

  it('refuses an IMEI the database cannot hold, and skips codec 12 camera chunks', () => {
    expect(() => decode(imeiHandshake('12345\u00006789'), session('tcp', null))).toThrow(DecodeError);
    const camera = Buffer.concat([Buffer.from([0x0d]), Buffer.from([0, 0, 0, 2]), Buffer.from([1, 2])]);
    const { fixes, ack } = decode(tcpPacket(avlData(CODEC_12, [camera])));
    expect(fixes).toEqual([]);
    expect(ack).toBeUndefined();
  });
});
