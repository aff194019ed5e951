import { describe, expect, it } from 'vitest';
import { knotsFromKmh } from '@rastro/domain/units';
import type { DecodedFix } from '../decoded.ts';
import { DecodeError } from '../decoded.ts';
import { genericPositionProblems } from '../osmand/osmand-vectors.ts';
import type { FrameResult, ProtocolSession } from '../protocol.ts';
import { buildFrame } from './framing.ts';
import { gt06Protocol } from './gt06.ts';
import {
  alarmPacket, CELL, DYD_REPLY, gpsBlock, hex, identifiedSession, IMEI, location22, login, newSession, OBSERVED, REFERENCE_VECTORS,
  status13,
} from './gt06-vectors.ts';

const NOW = Date.UTC(2025, 6, 1, 12, 0, 0);

const decode = (frame: Buffer | string, session: ProtocolSession = identifiedSession()): FrameResult =>
  gt06Protocol.decode(typeof frame === 'string' ? hex(frame) : frame, session, NOW);

function onlyFix(result: FrameResult): DecodedFix {
  expect(result.fixes).toHaveLength(1);
  return result.fixes![0]!;
}

/** A located fix that passes Traccar's generic checks (A.10). */
function located(result: FrameResult): DecodedFix {
  const fix = onlyFix(result);
  expect(fix.outdated).toBe(false);
  expect(genericPositionProblems(fix, NOW)).toEqual([]);
  return fix;
}

const round5 = (n: number) => Math.round(n * 1e5) / 1e5;
const ack = (result: FrameResult) => result.ack?.toString('hex');

describe('GT06 reference vectors (traccar-reference A.10)', () => {
  it('1: login → IMEI 864717003283581, answered with the login ack and its serial', () => {
    const session = newSession();
    const result = decode(REFERENCE_VECTORS[1], session);
    expect(result.uniqueId).toBe('864717003283581');
    expect(result.fixes).toBeUndefined();
    expect(ack(result)).toBe('78780501000955940d0a');
  });

  it('2: a location before any login is dropped, unanswered', () => {
    expect(decode(REFERENCE_VECTORS[2], newSession())).toEqual({});
  });

  it('3: 0x12 → 2015-10-20 14:21:11, valid, 54.94535, 24.01762, 5 satellites, ignition off', () => {
    const fix = located(decode(REFERENCE_VECTORS[3]));
    expect(fix.fixTime).toBe(Date.UTC(2015, 9, 20, 14, 21, 11));
    expect(fix.deviceTime).toBe(fix.fixTime);
    expect(fix.valid).toBe(true);
    expect(round5(fix.latitude)).toBe(54.94535);
    expect(round5(fix.longitude)).toBe(24.01762);
    expect(fix.speed).toBe(0);
    expect(fix.course).toBe(0);
    expect(fix.attributes).toEqual({ sat: 5, ignition: false });
    expect(fix.clock).toBe('device');
    expect(fix.network?.cellTowers).toEqual([{ mobileCountryCode: 246, mobileNetworkCode: 1, locationAreaCode: 110, cellId: 21978 }]);
  });

  it('5: 0x12 → valid, 2012-01-12 15:21:31, 23.111753, 114.409233', () => {
    const fix = located(decode(REFERENCE_VECTORS[5]));
    expect(fix.valid).toBe(true);
    expect(fix.fixTime).toBe(Date.UTC(2012, 0, 12, 15, 21, 31));
    expect(round5(fix.latitude)).toBe(23.11175);
    expect(round5(fix.longitude)).toBe(114.40923);
  });

  it('6: 0x22 → valid, 2015-12-29 02:51:05, 23.111693, 114.409298; ACC off; a re-uploaded fix', () => {
    const fix = located(decode(REFERENCE_VECTORS[6]));
    expect(fix.valid).toBe(true);
    expect(fix.fixTime).toBe(Date.UTC(2015, 11, 29, 2, 51, 5));
    expect(round5(fix.latitude)).toBe(23.11169);
    expect(round5(fix.longitude)).toBe(114.4093);
    expect(fix.attributes).toMatchObject({ ignition: false, archive: true, sat: 9 });
  });

  it('7: 0x16 (GPS + LBS + status) → a valid position with the status bytes', () => {
    const fix = located(decode(REFERENCE_VECTORS[7]));
    expect(fix.valid).toBe(true);
    expect(fix.fixTime).toBe(Date.UTC(2011, 4, 27, 9, 53, 35));
    expect(fix.attributes).toEqual({ sat: 15, armed: false, ignition: false, charge: false, blocked: false, batteryLevel: 83, rssi: 4 });
    expect(fix.network?.cellTowers?.[0]).toEqual({ mobileCountryCode: 460, mobileNetworkCode: 0, locationAreaCode: 0x266a, cellId: 0x1e17 });
  });

  it('8: 0x16 with a 4-byte cell id → batteryLevel 93', () => {
    const fix = located(decode(REFERENCE_VECTORS[8]));
    expect(fix.attributes.batteryLevel).toBe(93);
    expect(fix.valid).toBe(false);
    expect(fix.course).toBe(334);
    expect(fix.network?.cellTowers?.[0]?.cellId).toBe(0x0328e7a0);
  });

  it('10: 0xA0 (4G) → ignition false; 4-byte LAC and 8-byte cell id', () => {
    const fix = located(decode(REFERENCE_VECTORS[10]));
    expect(fix.attributes.ignition).toBe(false);
    expect(fix.fixTime).toBe(Date.UTC(2023, 6, 21, 15, 45, 14));
    expect(round5(fix.latitude)).toBe(-12.93668);
    expect(round5(fix.longitude)).toBe(-38.39642);
    expect(fix.network?.cellTowers?.[0]).toEqual({ mobileCountryCode: 724, mobileNetworkCode: 2, locationAreaCode: 0x912e, cellId: 0x0718798d });
  });

  it('11: 0x13 status → an outdated fix carrying the terminal state, answered', () => {
    const result = decode(REFERENCE_VECTORS[11]);
    const fix = onlyFix(result);
    expect(fix.outdated).toBe(true);
    expect(fix.deviceTime).toBe(NOW);
    expect(fix.attributes).toEqual({ armed: false, ignition: false, charge: true, blocked: true, batteryLevel: 100, rssi: 4 });
    expect(ack(result)).toBe('7878051301295d630d0a');
  });
});

describe('GT06 answers, byte for byte as Traccar wrote them to real units', () => {
  for (const { frame, answer } of OBSERVED) {
    it(`0x${frame.slice(6, 8)} serial ${frame.slice(-12, -8)} → ${answer}`, () => {
      const result = decode(frame);
      expect(ack(result)).toBe(answer);
      expect(result.fixes).toHaveLength(1);
    });
  }

  it('a real unit 0x12 places it where Traccar did (-2.27538, -79.88927), its date read as UTC', () => {
    const fix = located(decode(OBSERVED[0].frame));
    expect(round5(fix.latitude)).toBe(-2.27538);
    expect(round5(fix.longitude)).toBe(-79.88927);
    expect(fix.fixTime).toBe(Date.UTC(2017, 1, 6, 21, 13, 52));
  });

  it('location packets are answered (0x12, 0x22, 0xA0) as Traccar does', () => {
    expect(ack(decode(REFERENCE_VECTORS[6]))).toBe(buildFrame(0x22, Buffer.alloc(0), 0x0008).toString('hex'));
    expect(ack(decode(REFERENCE_VECTORS[10]))).toMatch(/^787805a006ed[0-9a-f]{4}0d0a$/);
  });

  it('a time request (0x8A) gets the server UTC date with the request serial', () => {
    const result = decode(buildFrame(0x8a, Buffer.alloc(0), 0x007d));
    expect(ack(result)).toBe(buildFrame(0x8a, Uint8Array.from([25, 7, 1, 12, 0, 0]), 0x007d).toString('hex'));
    expect(result.fixes).toBeUndefined();
  });

  it('a type we do not read is answered; our own command types and 0x94 are not', () => {
    expect(ack(decode(buildFrame(0x14, Buffer.from([1, 2, 3]), 7)))).toBe(buildFrame(0x14, Buffer.alloc(0), 7).toString('hex'));
    expect(decode(buildFrame(0x80, Buffer.from([1, 2, 3]), 7))).toEqual({});
    expect(decode(buildFrame(0x94, Buffer.from([0x00, 0x04, 0xb0]), 7)).ack).toBeUndefined();
  });

  it('a Wi-Fi list (0x17) is answered with its own date, in the short form', () => {
    const content = Buffer.from('250701120000' + '03' + '00'.repeat(10), 'hex');
    expect(ack(decode(buildFrame(0x17, content, 9)))).toBe('787800172507011200000d0a');
  });

  it('an empty location (the shape of an ack) after login is answered and stores nothing', () => {
    const result = decode(REFERENCE_VECTORS[2]);
    expect(result.fixes).toBeUndefined();
    expect(ack(result)).toBe('787805120099abec0d0a');
  });
});

describe('GT06 login and time zones', () => {
  it('a login with the time-zone extension dates the next frames in that zone (GMT+8 → UTC)', () => {
    const session = newSession();
    const result = decode(login(IMEI, 1, (800 << 4) | 0x02), session);
    expect(result.uniqueId).toBe(IMEI);
    const identified = { ...session, uniqueId: IMEI, deviceAttributes: {} };
    const fix = located(decode(location22({ date: [2025, 7, 1, 8, 0, 0], latitude: 1, longitude: 2 }, 2), identified));
    expect(fix.fixTime).toBe(Date.UTC(2025, 6, 1, 0, 0, 0));
    expect(fix.clock).toBeUndefined();
  });

  it('west of Greenwich (bit 3): GMT-3 local 09:00 is 12:00 UTC; GMT+5:30 works too', () => {
    const west = newSession();
    decode(login(IMEI, 1, (300 << 4) | 0x08 | 0x02), west);
    const w = located(decode(location22({ date: [2025, 7, 1, 9, 0, 0], latitude: -23.5, longitude: -46.6 }, 2), { ...west, uniqueId: IMEI }));
    expect(w.fixTime).toBe(Date.UTC(2025, 6, 1, 12, 0, 0));
    const india = newSession();
    decode(login(IMEI, 1, 530 << 4), india);
    const i = located(decode(location22({ date: [2025, 7, 1, 5, 30, 0], latitude: 28.6, longitude: 77.2 }, 2), { ...india, uniqueId: IMEI }));
    expect(i.fixTime).toBe(Date.UTC(2025, 6, 1, 0, 0, 0));
  });

  it('the device\'s decoder.timezone wins over the extension: the date stays the device clock', () => {
    const session = newSession();
    decode(login(IMEI, 1, 800 << 4), session);
    const identified = { ...session, uniqueId: IMEI, deviceAttributes: { 'decoder.timezone': 'America/Sao_Paulo' } };
    const fix = located(decode(location22({ date: [2025, 7, 1, 8, 0, 0], latitude: 1, longitude: 2 }, 2), identified));
    expect(fix.fixTime).toBe(Date.UTC(2025, 6, 1, 8, 0, 0));
    expect(fix.clock).toBe('device');
  });

  it('an extension of GMT+0 says UTC; a login without one forgets an earlier zone', () => {
    const session = newSession();
    decode('78781101035873905207726120200001007cde710d0a', session);
    const identified = { ...session, uniqueId: '358739052077261' };
    expect(located(decode(location22({ date: [2025, 7, 1, 8, 0, 0], latitude: 1, longitude: 2 }, 2), identified)).clock).toBeUndefined();
    decode(login(IMEI, 2, 800 << 4), session);
    decode(login(IMEI, 3), session);
    expect(located(decode(location22({ date: [2025, 7, 1, 8, 0, 0], latitude: 1, longitude: 2 }, 4), identified)).clock).toBe('device');
  });
});

describe('GT06 location packets built from the Concox layouts', () => {
  const g = { date: [2025, 6, 30, 23, 59, 58] as GpsDate, latitude: -23.55052, longitude: -46.633308, kmh: 100, course: 271, satellites: 11 };
  type GpsDate = [number, number, number, number, number, number];

  it('speed km/h → knots, course, hemispheres, satellites, ACC from the trailer', () => {
    const fix = located(decode(location22(g, 5, 1)));
    expect(fix.speed).toBeCloseTo(knotsFromKmh(100), 6);
    expect(fix.course).toBe(271);
    expect(round5(fix.latitude)).toBe(-23.55052);
    expect(round5(fix.longitude)).toBe(-46.63331);
    expect(fix.attributes).toEqual({ sat: 11, ignition: true });
    expect(fix.network?.cellTowers?.[0]).toEqual({ mobileCountryCode: 724, mobileNetworkCode: 5, locationAreaCode: 0x2a1f, cellId: 0xb2c3 });
  });

  it('0x10 (GPS only) with the ACC bits of the course word', () => {
    const fix = located(decode(buildFrame(0x10, gpsBlock({ ...g, ignition: true }), 3)));
    expect(fix.attributes).toEqual({ sat: 11, ignition: true });
    expect(fix.network).toBeNull();
  });

  it('0x11: a 2-byte MNC and a 4-byte cell id', () => {
    const cell = Buffer.from('02d4 000b 2a1f 0102a3b4'.replaceAll(' ', ''), 'hex');
    const fix = located(decode(buildFrame(0x11, Buffer.concat([gpsBlock(g), cell]), 3)));
    expect(fix.network?.cellTowers?.[0]).toEqual({ mobileCountryCode: 724, mobileNetworkCode: 11, locationAreaCode: 0x2a1f, cellId: 0x0102a3b4 });
  });

  it('0x12 with a trailing odometer (metres)', () => {
    const fix = located(decode(buildFrame(0x12, Buffer.concat([gpsBlock(g), CELL, Buffer.from('0001e240', 'hex')]), 3)));
    expect(fix.attributes.odometer).toBe(123456);
  });

  it('0x17 with an RFID card → driverUniqueId', () => {
    const frame = buildFrame(0x17, Buffer.concat([gpsBlock(g), CELL, Buffer.from('0000001234abcdef01', 'hex')]), 3);
    expect(located(decode(frame)).attributes.driverUniqueId).toBe('0000001234abcdef');
  });

  it('an invalid fix keeps valid = false and its coordinates', () => {
    const fix = onlyFix(decode(location22({ ...g, valid: false }, 5)));
    expect(fix.outdated).toBe(false);
    expect(fix.valid).toBe(false);
  });

  it('an impossible date (no fix yet: zeros) keeps the packet\'s facts on an outdated fix', () => {
    const result = decode(alarmPacket(0x16, { ...g, date: [2000, 0, 0, 0, 0, 0] }, 0x20, 0x01, 6));
    const fix = onlyFix(result);
    expect(fix.outdated).toBe(true);
    expect(fix.deviceTime).toBe(NOW);
    expect(fix.attributes.alarm).toBe('sos');
    expect(result.ack).toBeDefined();
  });

  it('a coordinate beyond 90° is no position either', () => {
    expect(onlyFix(decode(location22({ ...g, latitude: 95 }, 5))).outdated).toBe(true);
  });

  it('a course past 360 (ten bits reach 1023) is read as unknown', () => {
    expect(located(decode(location22({ ...g, course: 1000 }, 5))).course).toBe(0);
  });

  it('a location shorter than its GPS block is refused (the listener closes the connection)', () => {
    expect(() => decode(buildFrame(0x22, Buffer.alloc(10), 5))).toThrow(DecodeError);
  });
});

describe('GT06 alarm and status packets', () => {
  const g = { date: [2025, 7, 1, 10, 0, 0] as [number, number, number, number, number, number], latitude: -15.8, longitude: -47.9 };

  const alarms: Array<[number, string]> = [
    [0x01, 'sos'], [0x02, 'powerCut'], [0x03, 'vibration'], [0x04, 'geofenceEnter'], [0x05, 'geofenceExit'], [0x06, 'overspeed'],
    [0x0e, 'lowBattery'], [0x0f, 'lowBattery'], [0x11, 'powerOff'], [0x13, 'tampering'], [0x14, 'door'], [0x2c, 'accident'],
  ];
  for (const [code, name] of alarms) {
    it(`alarm code 0x${code.toString(16)} → ${name} (0x16 and 0x26), answered`, () => {
      for (const type of [0x16, 0x26] as const) {
        const result = decode(alarmPacket(type, g, 0x46, code, 0x0102));
        expect(located(result).attributes.alarm).toBe(name);
        expect(ack(result)).toBe(buildFrame(type, Buffer.alloc(0), 0x0102).toString('hex'));
      }
    });
  }

  it('the terminal-info alarm bits and the alarm code are both kept, without repeats', () => {
    expect(located(decode(alarmPacket(0x16, g, 0x10, 0x01, 1))).attributes.alarm).toBe('powerCut,sos');
    expect(located(decode(alarmPacket(0x16, g, 0x20, 0x01, 1))).attributes.alarm).toBe('sos');
  });

  it('terminal info: armed, ACC, charging, oil/electricity cut → blocked; voltage level → %', () => {
    const fix = located(decode(alarmPacket(0x16, g, 0x87, 0x00, 1)));
    expect(fix.attributes).toMatchObject({ armed: true, ignition: true, charge: true, blocked: true, batteryLevel: 83, rssi: 3 });
    expect(fix.attributes.alarm).toBeUndefined();
  });

  it('0x13 with a low-battery alarm; 0x13 voltage levels', () => {
    expect(onlyFix(decode(status13(0x46, 1, 1, 2, 0x0f))).attributes).toEqual({
      armed: false, ignition: true, charge: true, blocked: false, batteryLevel: 16, rssi: 2, alarm: 'lowBattery',
    });
  });

  it('0x23 heartbeat: terminal info, battery volts, GSM signal', () => {
    const fix = onlyFix(decode(buildFrame(0x23, Buffer.from('c2019004 0002'.replaceAll(' ', ''), 'hex'), 3)));
    expect(fix.outdated).toBe(true);
    expect(fix.attributes).toEqual({ armed: false, ignition: true, charge: false, blocked: true, battery: 4, rssi: 4 });
  });

  it('0x13 of 16 bytes (battery %, temperature)', () => {
    const content = Buffer.from('00 0000 00 02 4b 00 0190 00 0000 0000 80fa'.replaceAll(' ', ''), 'hex');
    expect(onlyFix(decode(buildFrame(0x13, content, 3))).attributes).toEqual({ batteryLevel: 75, temp1: 25 });
  });
});

describe('GT06 command replies and information packets', () => {
  it('0x15 "DYD=Success!" from a real unit → result, answered', () => {
    const result = decode(DYD_REPLY);
    const fix = onlyFix(result);
    expect(fix.outdated).toBe(true);
    expect(fix.attributes).toEqual({ result: 'DYD=Success!' });
    expect(ack(result)).toBe(buildFrame(0x15, Buffer.alloc(0), 0x0018).toString('hex'));
  });

  it('0x15 without language bytes, and with a wrong length padded with NULs', () => {
    const text = Buffer.from('Relay,1#OK', 'ascii');
    const plain = buildFrame(0x15, Buffer.concat([Buffer.from([4 + text.length, 0, 0, 0, 1]), text]), 2);
    expect(onlyFix(decode(plain)).attributes.result).toBe('Relay,1#OK');
    const padded = buildFrame(0x15, Buffer.concat([Buffer.from([0, 0, 0, 0, 0]), Buffer.from('DYD=Unvalued Fix'), Buffer.alloc(20)]), 2);
    expect(onlyFix(decode(padded)).attributes.result).toBe('DYD=Unvalued Fix');
  });

  it('0x21 (79 79) in ASCII and in UTF-16 → result, not answered', () => {
    const ascii = buildFrame(0x21, Buffer.concat([Buffer.from([0, 0, 0, 0, 1]), Buffer.from('RESET OK')]), 4, true);
    const result = decode(ascii);
    expect(onlyFix(result).attributes.result).toBe('RESET OK');
    expect(result.ack).toBeUndefined();
    const wide = buildFrame(0x21, Buffer.concat([Buffer.from([0, 0, 0, 0, 2]), Buffer.from('Olá ✓', 'utf16le').swap16()]), 4, true);
    expect(onlyFix(decode(wide)).attributes.result).toBe('Olá ✓');
  });

  it('a WHERE# reply places the unit and keeps the text as the result', () => {
    const text = 'Current position!Lat:S23.550520,Lon:W46.633308,Course:90.00,Speed:36.00,DateTime:2025-07-01 11:58:00';
    const fix = located(decode(buildFrame(0x21, Buffer.concat([Buffer.from([0, 0, 0, 0, 1]), Buffer.from(text)]), 4, true)));
    expect(fix.latitude).toBe(-23.55052);
    expect(fix.longitude).toBe(-46.633308);
    expect(fix.speed).toBeCloseTo(knotsFromKmh(36), 6);
    expect(fix.course).toBe(90);
    expect(fix.fixTime).toBe(Date.UTC(2025, 6, 1, 11, 58, 0));
    expect(fix.attributes.result).toBe(text);
    const spaced = 'Current Position!Lat: N22.57705,Lon: E113.91664,Course: 355,Speed: 2Km/h,DateTime: 2020-04-23 11: 00: 48';
    const other = located(decode(buildFrame(0x15, Buffer.concat([Buffer.from([4 + spaced.length, 0, 0, 0, 0]), Buffer.from(spaced)]), 4)));
    expect(other.latitude).toBe(22.57705);
    expect(other.fixTime).toBe(Date.UTC(2020, 3, 23, 11, 0, 48));
  });

  it('0x94 information (79 79): external power, ICCID, DYD state, door, RFID; none answered', () => {
    const info = (sub: number, data: Buffer) => decode(buildFrame(0x94, Buffer.concat([Buffer.from([sub]), data]), 8, true));
    const power = info(0x00, Buffer.from('04b0', 'hex'));
    expect(onlyFix(power).attributes).toEqual({ power: 12 });
    expect(power.ack).toBeUndefined();
    const iccid = Buffer.from('0864717003283581' + '0724050123456789' + '89550534200012345fff', 'hex');
    expect(onlyFix(info(0x0a, iccid)).attributes).toEqual({ iccid: '89550534200012345' });
    expect(onlyFix(info(0x04, Buffer.from('ALM1=C4;ALM2=CC;STA1=40;DYD=01;SOS=,,;'))).attributes).toEqual({ blocked: true });
    expect(onlyFix(info(0x04, Buffer.from('DYD=00;'))).attributes).toEqual({ blocked: false });
    expect(onlyFix(info(0x05, Buffer.from([0x01]))).attributes).toEqual({ door: true });
    expect(onlyFix(info(0x1b, Buffer.from('02 01 12345678 ff 03'.replaceAll(' ', ''), 'hex'))).attributes).toEqual({ driverUniqueId: '12345678' });
    expect(info(0x09, Buffer.from([1, 2, 3]))).toEqual({});
  });

  it('0x94 in the basic form reads the same', () => {
    expect(onlyFix(decode(buildFrame(0x94, Buffer.from('0004b0', 'hex'), 8))).attributes).toEqual({ power: 12 });
  });

  it('other extended packets are dropped unanswered, as Traccar does', () => {
    expect(decode(buildFrame(0x70, Buffer.from([1, 2, 3, 4]), 8, true))).toEqual({});
  });
});
