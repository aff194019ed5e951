// H02 decoder, framing, answers and commands, fed raw bytes: every vector of the Traccar
// reference (A.10) decodes as its table says, plus frames of each documented layout.
import { describe, expect, it } from 'vitest';
import { PROTOCOL_COMMAND_TYPES } from '@rastro/domain/commands';
import { FrameError, type FrameResult, type ProtocolSession } from '../protocol.ts';
import { expectPosition, onlyFix } from '../vector-checks.ts';
import { h02Protocol } from './h02.ts';
import { H02_COMMAND_TYPES, h02CommandText } from './h02-replies.ts';
import { LAYOUT_VECTORS, REFERENCE_VECTORS, binaryFrame, textFrame } from './h02-vectors.ts';

const NOW = Date.UTC(2025, 6, 1, 10, 20, 30);
const AT_1015 = Date.UTC(2025, 6, 1, 10, 15, 0);

const newSession = (uniqueId: string | null = null): ProtocolSession => ({ transport: 'tcp', remote: '127.0.0.1:1', uniqueId, deviceAttributes: null, state: {} });

const decode = (frame: Buffer, session = newSession()): FrameResult => h02Protocol.decode(frame, session, NOW);
const decodeText = (frame: string) => decode(textFrame(frame));

describe('H02 reference vectors (traccar-reference A.10)', () => {
  it('1: V8 report with the minutes-only longitude', () => {
    const result = decodeText(REFERENCE_VECTORS[1]);
    expect(result.uniqueId).toBe('9001000002');
    expectPosition(onlyFix(result), { time: '2025-10-22T21:39:45', valid: true, latitude: 35.7034, longitude: -0.64418, clock: 'device' });
    expect(result.ack).toBeUndefined();
  });

  it('2: V1 report, answered V4,V1 with the server time', () => {
    const result = decodeText(REFERENCE_VECTORS[2]);
    const fix = onlyFix(result);
    expectPosition(fix, { time: '2015-12-22T16:45:49', valid: true, latitude: 9.93978, longitude: -84.11178, clock: 'device' });
    expect(fix.attributes.status).toBe(0xfffffbff);
    expect(result.ack?.toString('latin1')).toBe('*HQ,4210051415,V4,V1,20250701102030#');
  });

  it('3: an empty validity letter is an invalid fix', () => {
    expectPosition(onlyFix(decodeText(REFERENCE_VECTORS[3])), { time: '2015-10-03T05:04:18', valid: false, latitude: 28.46021, longitude: 77.06414, clock: 'device' });
  });

  it('4: the "deg-min" coordinate variant', () => {
    const fix = onlyFix(decodeText(REFERENCE_VECTORS[4]));
    expectPosition(fix, { time: '2015-03-07T03:01:49', valid: true, latitude: -23.48349, longitude: -46.85975, clock: 'device' });
    expect(fix.speed).toBe(2.4); // already knots
    expect(fix.course).toBe(65);
  });

  it('7: heartbeat with a battery level, echoed', () => {
    const result = decodeText(REFERENCE_VECTORS[7]);
    const fix = onlyFix(result);
    expect(fix.outdated).toBe(true);
    expect(fix.attributes.batteryLevel).toBe(100);
    expect(result.ack?.toString('latin1')).toBe('*HQ,135790246811220,HTBT#');
  });

  it('8: heartbeat without data: nothing stored, still echoed', () => {
    const result = decodeText(REFERENCE_VECTORS[8]);
    expect(result).toEqual({ uniqueId: '135790246811220', ack: Buffer.from('*HQ,135790246811220,HTBT#') });
  });

  it('9: V1 sent before the first GPS fix: no position, the device named and answered', () => {
    const result = decodeText(REFERENCE_VECTORS[9]);
    expect(result.fixes).toBeUndefined();
    expect(result.uniqueId).toBe('353505510948929');
    expect(result.ack?.toString('latin1')).toBe('*HQ,353505510948929,V4,V1,20250701102030#');
  });

  it('10: binary report', () => {
    const frame = binaryFrame(REFERENCE_VECTORS[10]);
    expect(h02Protocol.frameLength(frame, 0, newSession())).toBe(45);
    const result = decode(frame);
    expect(result.uniqueId).toBe('4106000826');
    const fix = onlyFix(result);
    expectPosition(fix, { time: '2015-08-31T21:53:21', valid: true, latitude: 4.69898, longitude: -74.06971, clock: 'device' });
    expect(fix.attributes.batteryLevel).toBe(100);
    expect(fix.attributes.status).toBe(0xfffffbfd);
  });

  it('11: *TH maker and a trailing CR LF, kept with its frame', () => {
    const frame = textFrame(REFERENCE_VECTORS[11]);
    expect(h02Protocol.frameLength(frame, 0, newSession())).toBe(frame.length);
    const result = decode(frame);
    expect(result.uniqueId).toBe('2020916012');
    const fix = onlyFix(result);
    expectPosition(fix, { time: '2002-09-22T05:03:16', valid: true, latitude: 22.21458, longitude: 113.77762, clock: 'device' });
    expect(fix.speed).toBe(14.28);
    // Answered in the *HQ form whatever the maker letters, as Traccar does.
    expect(result.ack?.toString('latin1')).toBe('*HQ,2020916012,V4,V1,20250701102030#');
  });
});

describe('H02 status word (negative logic)', () => {
  it('ignition is on when the "ACC off" bit 10 is 1; alarms when their bit is 0', () => {
    const fix = onlyFix(decodeText(LAYOUT_VECTORS.sosPowerCut));
    expect(fix.attributes).toMatchObject({ ignition: true, blocked: false, alarm: 'sos,powerCut' });
    expect(fix.speed).toBe(35.5);
    expect(fix.course).toBe(270);
    const idle = onlyFix(decodeText(REFERENCE_VECTORS[2]));
    expect(idle.attributes).toMatchObject({ ignition: false, blocked: false, door: false, armed: false });
    expect(idle.attributes.alarm).toBeUndefined();
  });

  it('the fuel/electric cut output (bit 27 at 0) is `blocked`, in the V4 answer to S20', () => {
    const result = decodeText(LAYOUT_VECTORS.engineStopDone);
    const fix = onlyFix(result);
    expectPosition(fix, { time: '2025-07-01T10:15:00', valid: true, latitude: -23.50167, longitude: -46.63, clock: 'device' });
    expect(fix.attributes).toMatchObject({ result: 'S20,DONE,130305', blocked: true });
    expect(result.ack).toBeUndefined();
  });

  it('armed (bit 9) and fence, antenna, vibration and overspeed alarms', () => {
    const fix = onlyFix(decodeText(REFERENCE_VECTORS[1]));
    expect(fix.attributes).toMatchObject({ armed: true, ignition: false });
    const all = onlyFix(decodeText('*HQ,4210051415,V1,101500,A,2330.1000,S,04637.8000,W,0,0,010725,FFFFFF00#'));
    expect(String(all.attributes.alarm).split(',').sort()).toEqual(
      ['geofenceEnter', 'geofenceExit', 'gpsAntennaCut', 'overspeed', 'sos', 'vibration'].sort(),
    );
  });
});

describe('H02 layouts', () => {
  it('V4 without a location is a command reply on an outdated fix', () => {
    const fix = onlyFix(decodeText(LAYOUT_VECTORS.answerOnly));
    expect(fix.outdated).toBe(true);
    expect(fix.attributes.result).toBe('S20,ERROR');
  });

  it('serving cell in decimal and in hex', () => {
    expect(onlyFix(decodeText(LAYOUT_VECTORS.cellDecimal)).network).toEqual({
      cellTowers: [{ mobileCountryCode: 724, mobileNetworkCode: 10, locationAreaCode: 2231, cellId: 7980 }],
    });
    const hex = onlyFix(decodeText(LAYOUT_VECTORS.cellHex));
    expect(hex.valid).toBe(true); // a coding-scheme digit instead of A
    expect(hex.network?.cellTowers?.[0]).toEqual({ mobileCountryCode: 724, mobileNetworkCode: 10, locationAreaCode: 0x8b7, cellId: 0x1f2c });
  });

  it('values the reference keeps as io<N> when they are no cell', () => {
    const fix = onlyFix(decodeText(REFERENCE_VECTORS[2]));
    expect(fix.network).toBeNull();
    expect(fix.attributes).toMatchObject({ io1: '712', io2: '01', io3: '0', io4: '0', io5: '6' });
  });

  it('odometer, temperature, fuel and altitude', () => {
    const fix = onlyFix(decodeText(LAYOUT_VECTORS.odometer));
    expect(fix.attributes).toMatchObject({ odometer: 1234567, temp1: 25, fuel: 55.5 });
    expect(fix.altitude).toBe(760);
  });

  it('V19 SIM fields and a battery field before the date', () => {
    expect(onlyFix(decodeText(LAYOUT_VECTORS.v19)).fixTime).toBe(AT_1015);
    expect(onlyFix(decodeText(LAYOUT_VECTORS.v19)).attributes.status).toBe(0xfffffbff);
    const battery = onlyFix(decodeText(LAYOUT_VECTORS.batteryField));
    expect(battery.fixTime).toBe(AT_1015);
    expect(battery.course).toBe(47);
  });

  it('NBR cell list: an outdated fix with the network, answered V4,NBR', () => {
    const result = decodeText(LAYOUT_VECTORS.nbr);
    const fix = onlyFix(result);
    expect(fix.outdated).toBe(true);
    expect(fix.deviceTime).toBe(AT_1015);
    expect(fix.clock).toBe('device');
    expect(fix.network?.cellTowers).toEqual([
      { mobileCountryCode: 724, mobileNetworkCode: 10, locationAreaCode: 2231, cellId: 7980, signalStrength: 40 },
      { mobileCountryCode: 724, mobileNetworkCode: 10, locationAreaCode: 2231, cellId: 7981, signalStrength: 31 },
      { mobileCountryCode: 724, mobileNetworkCode: 10, locationAreaCode: 2240, cellId: 1102, signalStrength: 12 },
    ]);
    expect(result.ack?.toString('latin1')).toBe('*HQ,4210051415,V4,NBR,20250701102030#');
  });

  it('LINK: signal, satellites, battery, steps', () => {
    const result = decodeText(LAYOUT_VECTORS.link);
    const fix = onlyFix(result);
    expect(fix.outdated).toBe(true);
    expect(fix.attributes).toMatchObject({ rssi: 15, sat: 0, batteryLevel: 84, steps: 120, turnovers: 3, ignition: false });
    expect(result.ack).toBeUndefined();
  });

  it('V3 and VP1 cell lists', () => {
    const v3 = onlyFix(decodeText(LAYOUT_VECTORS.v3));
    expect(v3.network?.cellTowers).toEqual([
      { mobileCountryCode: 724, mobileNetworkCode: 10, locationAreaCode: 2231, cellId: 7980, signalStrength: 150 },
      { mobileCountryCode: 724, mobileNetworkCode: 10, locationAreaCode: 2231, cellId: 7981, signalStrength: 140 },
    ]);
    const vp1 = onlyFix(decodeText(LAYOUT_VECTORS.vp1Cells));
    expect(vp1.outdated).toBe(true);
    expect(vp1.network?.cellTowers).toHaveLength(2);
    const vp1Fix = onlyFix(decodeText(LAYOUT_VECTORS.vp1Fix));
    expectPosition(vp1Fix, { time: '2025-07-01T00:00:00', valid: true, latitude: -23.50167, longitude: -46.63, clock: 'device' });
  });

  it('V0 heartbeat is echoed; a type we do not read names its device only', () => {
    expect(decodeText(LAYOUT_VECTORS.v0)).toEqual({ uniqueId: '4210051415', ack: Buffer.from('*HQ,4210051415,V0#') });
    expect(decodeText(LAYOUT_VECTORS.unknownType)).toEqual({ uniqueId: '4210051415' });
  });

  it('binary frames with a 10-digit and a 15-digit id', () => {
    for (const [hex, id] of [[LAYOUT_VECTORS.binaryShort, '4210051415'], [LAYOUT_VECTORS.binaryLongId, '860000000000011']] as const) {
      const result = decode(binaryFrame(hex));
      expect(result.uniqueId).toBe(id);
      const fix = onlyFix(result);
      expectPosition(fix, { time: '2025-07-01T10:15:00', valid: true, latitude: -23.50167, longitude: -46.63, clock: 'device' });
      expect(fix.speed).toBe(35);
      expect(fix.course).toBe(270);
      expect(fix.attributes).toMatchObject({ batteryLevel: 80, ignition: false });
    }
  });

  it('an impossible position or date keeps the report as an outdated fix stamped now, its alarm kept', () => {
    const badLatitude = onlyFix(decodeText('*HQ,4210051415,V1,101500,A,9930.1000,S,04637.8000,W,0,0,010725,FFFFFFFD#'));
    expect(badLatitude).toMatchObject({ outdated: true, valid: false, deviceTime: NOW, fixTime: NOW });
    expect(badLatitude.attributes.alarm).toBe('sos');
    const badDate = onlyFix(decodeText('*HQ,4210051415,V1,101500,A,2330.1000,S,04637.8000,W,0,0,310225,FFFFFFFF#'));
    expect(badDate).toMatchObject({ outdated: true, fixTime: NOW });
    const badMinutes = onlyFix(decodeText('*HQ,4210051415,V1,101500,A,2375.1000,S,04637.8000,W,0,0,010725,FFFFFFFF#'));
    expect(badMinutes.outdated).toBe(true);
    const fastest = onlyFix(decodeText('*HQ,4210051415,V1,101500,A,2330.1000,S,04637.8000,W,1500.00,0,010725,FFFFFFFF#'));
    expect(fastest.outdated).toBe(true);
  });

  it('a V1 without a date is stamped with the arrival time, as Traccar does', () => {
    const fix = onlyFix(decodeText('*HQ,4210051415,V1,,V,2330.1000,S,04637.8000,W,0.00,0,,FFFFFFEF#'));
    expect(fix).toMatchObject({ outdated: false, valid: false, fixTime: NOW });
    expect(fix.clock).toBeUndefined();
  });

  it('a frame without an id is nobody’s: no uniqueId, no answer', () => {
    const result = decodeText('*HQ,,V1,101500,A,2330.1000,S,04637.8000,W,0,0,010725,FFFFFBFF#');
    expect(result.uniqueId).toBeUndefined();
    expect(result.ack).toBeUndefined();
  });

  it('refuses malformed makers and ids', () => {
    expect(() => decodeText('*H,4210051415,V1#')).toThrow();
    expect(() => decodeText('*HQ,42100;51415,V1#')).toThrow();
  });
});

describe('H02 framing', () => {
  const frameLength = (bytes: Buffer, session = newSession(), offset = 0) => h02Protocol.frameLength(bytes, offset, session);

  it('splits back-to-back text and binary frames, waits for partial ones', () => {
    const text = textFrame(REFERENCE_VECTORS[2]);
    const binary = binaryFrame(REFERENCE_VECTORS[10]);
    const stream = Buffer.concat([text, binary, text]);
    const session = newSession();
    expect(frameLength(stream, session, 0)).toBe(text.length);
    expect(frameLength(stream, session, text.length)).toBe(45);
    expect(frameLength(stream, session, text.length + 45)).toBe(text.length);
    expect(frameLength(text.subarray(0, 20))).toBe(0);
    expect(frameLength(binary.subarray(0, 20))).toBe(0);
  });

  it('learns the binary length of the connection, so a split binary frame waits', () => {
    const binary = binaryFrame(REFERENCE_VECTORS[10]);
    const session = newSession();
    expect(frameLength(binary, session)).toBe(45);
    expect(frameLength(binary.subarray(0, 32), session)).toBe(0);
    expect(frameLength(binaryFrame(LAYOUT_VECTORS.binaryShort))).toBe(32);
    expect(frameLength(binaryFrame(LAYOUT_VECTORS.binaryLongId))).toBe(42);
  });

  it('CR LF arriving after its frame is a frame of its own that decodes to nothing', () => {
    const lineEnds = Buffer.from('\r\n*HQ', 'latin1');
    expect(frameLength(lineEnds)).toBe(2);
    expect(decode(lineEnds.subarray(0, 2))).toEqual({});
  });

  it('garbage and overlong frames are FrameErrors', () => {
    expect(() => frameLength(Buffer.from('GET / HTTP/1.1\r\n'))).toThrow(FrameError);
    expect(() => frameLength(Buffer.from(`*HQ,${'1'.repeat(1100)}`))).toThrow(FrameError);
    expect(frameLength(Buffer.from(`*HQ,${'1'.repeat(900)}`))).toBe(0);
    expect(() => frameLength(Buffer.concat([Buffer.from([0x24]), Buffer.alloc(60, 0x11)]))).toThrow(FrameError);
  });
});

describe('H02 commands', () => {
  const at = Date.UTC(2025, 6, 1, 13, 3, 5);

  it('engine stop and resume: S20 with the time, static cut', () => {
    expect(h02CommandText({ type: 'engineStop', attributes: {} }, '4210051415', at)).toBe('*HQ,4210051415,S20,130305,1,1#');
    expect(h02CommandText({ type: 'engineResume', attributes: {} }, '4210051415', at)).toBe('*HQ,4210051415,S20,130305,1,0#');
  });

  it('custom sends data as it is, with {uniqueId} replaced', () => {
    expect(h02CommandText({ type: 'custom', attributes: { data: '*HQ,{uniqueId},D1,000000,60#' } }, '4210051415', at)).toBe('*HQ,4210051415,D1,000000,60#');
  });

  it('types without an H02 instruction are not encoded, and the list matches the domain', () => {
    expect(h02CommandText({ type: 'rebootDevice', attributes: {} }, '4210051415', at)).toBeNull();
    expect(h02CommandText({ type: 'alarmArm', attributes: {} }, '4210051415', at)).toBeNull();
    expect([...(PROTOCOL_COMMAND_TYPES.h02 ?? [])].sort()).toEqual([...H02_COMMAND_TYPES].sort());
  });

  it('encodeCommand writes for the session’s device, nothing before identification', () => {
    const command = { deviceId: 1, type: 'engineStop', textChannel: false, attributes: {} };
    expect(h02Protocol.encodeCommand(command, newSession())).toBeNull();
    expect(h02Protocol.encodeCommand(command, newSession('4210051415'))?.toString('latin1')).toMatch(/^\*HQ,4210051415,S20,\d{6},1,1#$/);
  });
});
