// Suntech decoder, framing, keep-alive answer and commands, fed raw bytes: every vector of the
// Traccar reference (A.10) decodes as its table says, plus frames of each documented layout.
import { describe, expect, it } from 'vitest';
import { PROTOCOL_COMMAND_TYPES } from '@rastro/domain/commands';
import { knotsFromKmh } from '@rastro/domain/units';
import { FrameError, type FrameResult, type ProtocolSession } from '../protocol.ts';
import { expectPosition, onlyFix } from '../vector-checks.ts';
import { SUNTECH_COMMAND_TYPES, suntechCommandText } from './suntech-commands.ts';
import { LAYOUT_VECTORS, REFERENCE_VECTORS } from './suntech-vectors.ts';
import { dialectOf, suntechProtocol } from './suntech.ts';

const NOW = Date.UTC(2025, 6, 1, 10, 20, 30);
const AT_1015 = Date.UTC(2025, 6, 1, 10, 15, 0);

const newSession = (uniqueId: string | null = null): ProtocolSession => ({ transport: 'tcp', remote: '127.0.0.1:1', uniqueId, deviceAttributes: null, state: {} });
const text = (report: string): Buffer => Buffer.from(`${report}\r`, 'latin1');
const decode = (report: string, session = newSession()): FrameResult => suntechProtocol.decode(text(report), session, NOW);

describe('Suntech reference vectors (traccar-reference A.10)', () => {
  it('1: ST910 alert', () => {
    const result = decode(REFERENCE_VECTORS[1]);
    expect(result.uniqueId).toBe('123456');
    const fix = onlyFix(result);
    expectPosition(fix, { time: '2014-10-18T18:30:12', valid: false, latitude: 37.47877, longitude: 126.88969 });
    expect(fix.attributes.alarm).toBe('general');
    expect(result.ack).toBeUndefined();
  });

  it('2: SA200 status report (no model field), km/h converted to knots', () => {
    const fix = onlyFix(decode(REFERENCE_VECTORS[2]));
    expectPosition(fix, { time: '2012-07-18T15:37:12', valid: true, latitude: -15.61876, longitude: -56.08324 });
    expect(fix.speed).toBeCloseTo(knotsFromKmh(0.024), 9);
    expect(fix.attributes).toMatchObject({ sat: 8, odometer: 41548, power: 12.17, ignition: true, out1: false, blocked: false, index: 1979, versionFw: '042' });
  });

  it('4: universal status report', () => {
    const fix = onlyFix(decode(REFERENCE_VECTORS[4]));
    expectPosition(fix, { time: '2016-11-17T08:37:39', valid: true, latitude: 37.47932, longitude: 126.88783 });
    expect(fix.speed).toBeCloseTo(knotsFromKmh(62.03), 9);
    expect(fix.course).toBe(65.43);
    expect(fix.attributes).toMatchObject({ sat: 10, ignition: true, in2: true, out1: false, blocked: false, rssi: 20, index: 492 });
    expect(fix.network?.cellTowers).toEqual([{ cellId: 0x4f, mobileCountryCode: 450, mobileNetworkCode: 0, locationAreaCode: 0x14 }]);
  });

  it('5: universal alert 42 is an SOS', () => {
    const fix = onlyFix(decode(REFERENCE_VECTORS[5]));
    expect(fix.attributes.alarm).toBe('sos');
    expectPosition(fix, { time: '2022-10-17T21:41:30', valid: true, latitude: 25.79106, longitude: -100.17075 });
  });

  it('7: UEX with a GTSL reader: the driver id', () => {
    const fix = onlyFix(decode(REFERENCE_VECTORS[7]));
    expect(fix.attributes.driverUniqueId).toBe('9255143');
    expectPosition(fix, { time: '2021-04-20T12:41:01', valid: true, latitude: -1.28083, longitude: -47.93177 });
  });

  it('8: universal command answer', () => {
    const fix = onlyFix(decode(REFERENCE_VECTORS[8]));
    expect(fix.outdated).toBe(true);
    expect(fix.attributes.result).toBe('04;02;TEST');
  });

  it('9: legacy command answer', () => {
    const result = decode(REFERENCE_VECTORS[9]);
    expect(result.uniqueId).toBe('511848119');
    expect(onlyFix(result).attributes.result).toBe('319H;Disable1');
  });

  it('10: keep-alive: no position, answered with its own text', () => {
    expect(decode(REFERENCE_VECTORS[10])).toEqual({ uniqueId: '317652', ack: Buffer.from('SA200ALV;317652\r') });
  });

  it('11: SA200 status report', () => {
    const fix = onlyFix(decode(REFERENCE_VECTORS[11]));
    expectPosition(fix, { time: '2013-06-15T22:22:32', valid: true, latitude: 2.86051, longitude: -60.65335 });
    expect(fix.attributes.ignition).toBe(false);
  });

  it('12: zip (binary) status report with the hour meter', () => {
    const frame = Buffer.from(REFERENCE_VECTORS[12], 'hex');
    expect(suntechProtocol.frameLength(frame, 0, newSession())).toBe(frame.length);
    const result = suntechProtocol.decode(frame, newSession(), NOW);
    expect(result.uniqueId).toBe('511340877');
    const fix = onlyFix(result);
    expectPosition(fix, { time: '2024-12-23T00:22:04', valid: true, latitude: -12.063565, longitude: -45.793653 });
    expect(fix.speed).toBeCloseTo(knotsFromKmh(0.38), 9);
    expect(fix.course).toBeCloseTo(26.3, 9);
    expect(fix.attributes).toMatchObject({ sat: 6, odometer: 23486038, ignition: false, index: 117, hours: 160039 * 60_000, battery: 4 });
  });
});

describe('Suntech layouts', () => {
  it('legacy output 1 is the engine cut: blocked; the hour-meter block', () => {
    const fix = onlyFix(decode(LAYOUT_VECTORS.st300Blocked));
    expectPosition(fix, { time: '2025-07-01T10:15:00', valid: true, latitude: -23.501667, longitude: -46.63 });
    expect(fix.speed).toBeCloseTo(knotsFromKmh(72), 9);
    expect(fix.attributes).toMatchObject({
      ignition: true, out1: true, blocked: true, power: 12.8, odometer: 1234567, index: 42, hours: 600 * 60_000, battery: 4.1,
    });
  });

  it('legacy alerts and emergencies as alarms, events as numbers', () => {
    expect(onlyFix(decode(LAYOUT_VECTORS.st300PowerCut)).attributes.alarm).toBe('powerCut');
    expect(onlyFix(decode(LAYOUT_VECTORS.st300Panic)).attributes.alarm).toBe('sos');
    expect(onlyFix(decode(LAYOUT_VECTORS.st300Event)).attributes.event).toBe(3);
  });

  it('ST600 carries the whole serving cell', () => {
    const fix = onlyFix(decode(LAYOUT_VECTORS.st600Cell));
    expect(fix.fixTime).toBe(AT_1015);
    expect(fix.network?.cellTowers).toEqual([{ cellId: 0x1f2c, mobileCountryCode: 724, mobileNetworkCode: 10, locationAreaCode: 0x8b7, signalStrength: 31 }]);
  });

  it('universal output 1 and inputs as binary digits, input 1 (ignition) last', () => {
    const fix = onlyFix(decode(LAYOUT_VECTORS.universalBlocked));
    expect(fix.attributes).toMatchObject({ ignition: true, out1: true, blocked: true, input: 1, output: 1, index: 42 });
  });

  it('universal alert 59 carries the iButton id; a shorter header mask; UEX driver id', () => {
    expect(onlyFix(decode(LAYOUT_VECTORS.universalIButton)).attributes.driverUniqueId).toBe('01A2B3C4D5E6F7');
    const panic = onlyFix(decode(LAYOUT_VECTORS.universalPanic));
    expectPosition(panic, { time: '2025-07-01T10:15:00', valid: true, latitude: -23.501667, longitude: -46.63 });
    expect(panic.attributes.alarm).toBe('sos');
    expect(panic.network).toBeNull();
    expect(onlyFix(decode(LAYOUT_VECTORS.universalUex)).attributes.driverUniqueId).toBe('4242');
  });

  it('universal keep-alive is echoed', () => {
    expect(decode(LAYOUT_VECTORS.universalAlive)).toEqual({ uniqueId: '0950030205', ack: Buffer.from('ALV;0950030205\r') });
  });

  it('an impossible position or date keeps the report as an outdated fix stamped now, its alarm kept', () => {
    const badLatitude = onlyFix(decode(LAYOUT_VECTORS.st300Panic.replace('-23.501667', '-93.501667')));
    expect(badLatitude).toMatchObject({ outdated: true, fixTime: NOW });
    expect(badLatitude.attributes.alarm).toBe('sos');
    expect(onlyFix(decode(LAYOUT_VECTORS.st300Panic.replace('20250701', '20250231'))).outdated).toBe(true);
    expect(onlyFix(decode(LAYOUT_VECTORS.st300Panic.replace('000.000;000.00', '9999.000;000.00'))).outdated).toBe(true);
  });

  it('reports it does not read name their device only; malformed ids are refused', () => {
    expect(decode('BLE;0950030205;1;2;3')).toEqual({ uniqueId: '0950030205' });
    expect(decode('ST480STT;511331307;whatever')).toEqual({ uniqueId: '511331307' });
    expect(() => decode('STT;09500 30205;3FFFFF')).toThrow();
    expect(() => decode(';;;')).toThrow();
  });
});

describe('Suntech framing', () => {
  const frameLength = (bytes: Buffer, offset = 0) => suntechProtocol.frameLength(bytes, offset, newSession());

  it('text frames end at CR, not at a CR LF inside a multi-line answer', () => {
    const a = text(REFERENCE_VECTORS[2]);
    const b = text(REFERENCE_VECTORS[4]);
    const stream = Buffer.concat([a, b]);
    expect(frameLength(stream)).toBe(a.length);
    expect(frameLength(stream, a.length)).toBe(b.length);
    expect(frameLength(a.subarray(0, 30))).toBe(0);
    const multiLine = Buffer.from('ST300CMD;Res;511331307;311;Preset;\r\nNTW;0;internet\r\nRPT;60;180\r', 'latin1');
    expect(frameLength(multiLine)).toBe(multiLine.length);
    expect(onlyFix(suntechProtocol.decode(multiLine, newSession(), NOW)).attributes.result).toBe('311;Preset;\r\nNTW;0;internet\r\nRPT;60;180');
  });

  it('zip frames by their length field, waiting for the rest', () => {
    const zip = Buffer.from(REFERENCE_VECTORS[12], 'hex');
    expect(frameLength(Buffer.concat([zip, text(REFERENCE_VECTORS[2])]))).toBe(zip.length);
    expect(frameLength(zip.subarray(0, 20))).toBe(0);
    expect(frameLength(zip.subarray(0, 2))).toBe(0);
  });

  it('stray line ends decode to nothing; garbage and oversized frames are FrameErrors', () => {
    expect(frameLength(Buffer.from('\n\nSTT'))).toBe(2);
    expect(suntechProtocol.decode(Buffer.from('\n\n'), newSession(), NOW)).toEqual({});
    expect(() => frameLength(Buffer.from([0x00, 0x01]))).toThrow(FrameError);
    expect(() => frameLength(Buffer.from([0x02, 0xff, 0xff]))).toThrow(FrameError);
    expect(() => frameLength(Buffer.from(`STT;${'1'.repeat(5000)}`))).toThrow(FrameError);
    const badEnd = Buffer.from(REFERENCE_VECTORS[12], 'hex');
    badEnd[badEnd.length - 1] = 0x04;
    expect(() => suntechProtocol.decode(badEnd, newSession(), NOW)).toThrow(FrameError);
  });
});

describe('Suntech commands', () => {
  const universal = { universal: true, model: '' };
  const st300 = { universal: false, model: 'ST300' };
  const command = (type: string, attributes: Record<string, unknown> = {}) => ({ type, attributes });

  it.each([
    ['engineStop', {}, 'CMD;0950030205;04;01', 'ST300CMD;511331307;02;Enable1'],
    ['engineResume', {}, 'CMD;0950030205;04;02', 'ST300CMD;511331307;02;Disable1'],
    ['positionSingle', {}, 'CMD;0950030205;03;01', 'ST300CMD;511331307;02;StatusReq'],
    ['rebootDevice', {}, 'CMD;0950030205;03;03', 'ST300CMD;511331307;02;Reboot'],
    ['outputControl', { index: 2, data: '1' }, 'CMD;0950030205;04;03', 'ST300CMD;511331307;02;Enable2'],
    ['outputControl', { index: '2', data: '0' }, 'CMD;0950030205;04;04', 'ST300CMD;511331307;02;Disable2'],
  ])('%s %j: universal CMD;<id>;<group>;<action>, legacy <MODEL>CMD;<id>;02;<name>', (type, attributes, universalText, legacyText) => {
    expect(suntechCommandText(command(type, attributes), '0950030205', universal)).toBe(`${universalText}\r`);
    expect(suntechCommandText(command(type, attributes), '511331307', st300)).toBe(`${legacyText}\r`);
  });

  it('custom is sent as it is, CR added; unknown types and outputs are not encoded', () => {
    expect(suntechCommandText(command('custom', { data: 'CMD;{uniqueId};03;01' }), '0950030205', universal)).toBe('CMD;0950030205;03;01\r');
    expect(suntechCommandText(command('custom', { data: 'ST300CMD;1;02;Preset\r' }), '1', st300)).toBe('ST300CMD;1;02;Preset\r');
    expect(suntechCommandText(command('outputControl', { index: 3, data: '1' }), '1', universal)).toBeNull();
    expect(suntechCommandText(command('outputControl', { index: 1, data: 'on' }), '1', universal)).toBeNull();
    expect(suntechCommandText(command('alarmArm'), '1', universal)).toBeNull();
    expect([...(PROTOCOL_COMMAND_TYPES.suntech ?? [])].sort()).toEqual([...SUNTECH_COMMAND_TYPES].sort());
  });

  it('the session learns the dialect from the reports, and commands follow it', () => {
    const session = newSession('511331307');
    expect(dialectOf(session).universal).toBe(true);
    suntechProtocol.decode(text(LAYOUT_VECTORS.st300Blocked), session, NOW);
    expect(dialectOf(session)).toEqual({ universal: false, model: 'ST300' });
    const stop = { deviceId: 1, type: 'engineStop', textChannel: false, attributes: {} };
    expect(suntechProtocol.encodeCommand(stop, session)?.toString('latin1')).toBe('ST300CMD;511331307;02;Enable1\r');
    suntechProtocol.decode(text(REFERENCE_VECTORS[4]), session, NOW);
    expect(suntechProtocol.encodeCommand(stop, session)?.toString('latin1')).toBe('CMD;511331307;04;01\r');
    expect(suntechProtocol.encodeCommand(stop, newSession())).toBeNull();
  });
});
