import { describe, expect, it } from 'vitest';
import { DecodeError, type DecodedMessage } from '../decoded.ts';
import { decodeQuery, parseTimestamp } from './decode-query.ts';
import { decodeJsonText, MPS_TO_KNOTS } from './decode-json.ts';
import { genericPositionProblems, JSON_VECTORS, QUERY_VECTORS } from './osmand-vectors.ts';

const NOW = Date.UTC(2025, 6, 1, 12, 0, 0);

function query(n: keyof typeof QUERY_VECTORS): DecodedMessage | null {
  const url = new URL(QUERY_VECTORS[n], 'http://localhost');
  return decodeQuery(url.searchParams, NOW);
}

function valid(msg: DecodedMessage | null): DecodedMessage {
  expect(msg).not.toBeNull();
  expect(msg!.fix.outdated).toBe(false);
  expect(msg!.fix.valid).toBe(true);
  expect(genericPositionProblems(msg!.fix, NOW)).toEqual([]);
  return msg!;
}

describe('OsmAnd query vectors', () => {
  it('1: ISO timestamp with T, hdop and altitude', () => {
    const m = valid(query(1));
    expect(m.uniqueId).toBe('902064');
    expect(m.fix.fixTime).toBe(Date.parse('2016-01-27T18:55:47Z'));
    expect(m.fix.deviceTime).toBe(m.fix.fixTime);
    expect(m.fix.latitude).toBe(42.06288);
    expect(m.fix.longitude).toBe(-88.23412);
    expect(m.fix.altitude).toBe(224);
    expect(m.fix.speed).toBe(0);
    expect(m.fix.attributes).toEqual({ hdop: 6 });
    expect(m.fix.protocol).toBe('osmand');
  });

  it('2: epoch milliseconds', () => {
    const m = valid(query(2));
    expect(m.fix.fixTime).toBe(1442068686579);
  });

  it('3: id last and local "yyyy-MM-dd HH:mm:ss" time', () => {
    const m = valid(query(3));
    expect(m.uniqueId).toBe('353861053849681');
    expect(m.fix.fixTime).toBe(new Date(2014, 5, 4, 9, 10, 11).getTime());
    expect(m.fix.altitude).toBe(384.7);
  });

  it('4: epoch seconds, bearing', () => {
    const m = valid(query(4));
    expect(m.uniqueId).toBe('123456');
    expect(m.fix.fixTime).toBe(1377177267000);
    expect([m.fix.latitude, m.fix.longitude, m.fix.course]).toEqual([60, 30, 0]);
    expect(m.fix.attributes).toEqual({ hdop: 0 });
  });

  it('5: deviceid, heading, no timestamp (now), unknown keys as attributes', () => {
    const m = valid(query(5));
    expect(m.uniqueId).toBe('123456');
    expect(m.fix.fixTime).toBe(NOW);
    expect(m.fix.attributes).toEqual({ vacc: 0, hacc: 0 });
  });

  it('6: batt becomes batteryLevel', () => {
    const m = valid(query(6));
    expect(m.fix.attributes.batteryLevel).toBe(87);
    expect(m.fix.altitude).toBeCloseTo(350.059479, 6);
    expect(m.fix.longitude).toBe(-0.883333);
  });

  it('7: location=lat,lon', () => {
    const m = valid(query(7));
    expect([m.fix.latitude, m.fix.longitude]).toEqual([60, 30]);
  });

  it('8: extra attributes typed as number and boolean, speed in knots', () => {
    const m = valid(query(8));
    expect(m.fix.speed).toBe(40);
    expect(m.fix.course).toBeCloseTo(7.19889788244, 10);
    expect(m.fix.attributes).toEqual({ ignition: true, rpm: 933, fuel: 24 });
  });

  it('9: no id gives no message', () => {
    expect(query(9)).toBeNull();
  });

  it('10: cells and wifis without coordinates make an outdated position with network', () => {
    const m = query(10)!;
    expect(m).not.toBeNull();
    expect(m.fix.outdated).toBe(true);
    expect(m.fix.network).toEqual({
      radioType: 'gsm',
      considerIp: false,
      cellTowers: [
        { cellId: 2224, locationAreaCode: 16, mobileCountryCode: 257, mobileNetworkCode: 2 },
        { cellId: 2223, locationAreaCode: 16, mobileCountryCode: 257, mobileNetworkCode: 2, signalStrength: -90 },
      ],
      wifiAccessPoints: [
        { macAddress: '00:14:22:01:23:45', signalStrength: -80 },
        { macAddress: '00:1C:B3:09:85:15', signalStrength: -70 },
      ],
    });
  });
});

describe('OsmAnd query decoding rules', () => {
  const decode = (q: string) => decodeQuery(new URLSearchParams(q), NOW);

  it('refuses coordinates out of range and non-numeric values', () => {
    expect(() => decode('id=1&lat=91&lon=0')).toThrow(DecodeError);
    expect(() => decode('id=1&lat=0&lon=-180.5')).toThrow(/longitude/);
    expect(() => decode('id=1&lat=abc&lon=0')).toThrow(/latitude/);
    expect(() => decode('id=1&speed=fast')).toThrow(/speed/);
    expect(() => decode('id=1&timestamp=yesterday')).toThrow(/timestamp/);
    expect(() => decode('id=1&cell=1,2')).toThrow(/cell/);
  });

  it('reads valid, charge, driverUniqueId and notificationToken', () => {
    const m = decode('id=7&lat=1&lon=2&valid=false&charge=true&driverUniqueId=0042&notificationToken=tok')!;
    expect(m.fix.valid).toBe(false);
    expect(m.fix.attributes).toEqual({ charge: true, driverUniqueId: '0042' });
    expect(m.notificationToken).toBe('tok');
    expect(decode('id=7&lat=1&lon=2&valid=1')!.fix.valid).toBe(true);
  });

  it('keeps other values as text, later keys win, accuracy and altitude in metres', () => {
    const m = decode('id=7&lat=1&lon=2&note=hello&lat=3&accuracy=12.5&flag=false')!;
    expect(m.fix.latitude).toBe(3);
    expect(m.fix.accuracy).toBe(12.5);
    expect(m.fix.attributes).toEqual({ note: 'hello', flag: false });
  });

  it('only latitude or only longitude is an outdated position', () => {
    expect(decode('id=7&lat=1')!.fix.outdated).toBe(true);
  });

  it('timestamps: seconds below 2^31, milliseconds above, ISO without zone as UTC', () => {
    expect(parseTimestamp('2147483646')).toBe(2147483646000);
    expect(parseTimestamp('2147483648')).toBe(2147483648);
    expect(parseTimestamp('2020-01-02T03:04:05')).toBe(Date.UTC(2020, 0, 2, 3, 4, 5));
    expect(parseTimestamp('2020-01-02T03:04:05+02:00')).toBe(Date.UTC(2020, 0, 2, 1, 4, 5));
  });
});

describe('OsmAnd JSON vectors', () => {
  const json = (k: keyof typeof JSON_VECTORS) => decodeJsonText(JSON_VECTORS[k], NOW);

  it('J1: valid position with motion, odometer, event, activity, battery', () => {
    const m = valid(json('J1'));
    expect(m.uniqueId).toBe('48241179');
    expect(m.fix.fixTime).toBe(Date.parse('2025-06-15T13:45:12.862Z'));
    expect([m.fix.latitude, m.fix.longitude, m.fix.altitude]).toEqual([37.4219983, -122.084, 5]);
    expect(m.fix.course).toBe(0);
    // accuracy 5 m is under osmand.minAccuracy (10 m) and is not kept
    expect(m.fix.accuracy).toBe(0);
    expect(m.fix.attributes).toEqual({ motion: false, odometer: 0, event: 'motionchange', activity: 'still', batteryLevel: 100 });
  });

  it('J2: extras become typed attributes', () => {
    const m = valid(json('J2'));
    expect(m.fix.attributes).toMatchObject({
      device_string_test: 'long_device_id',
      device_bool_test: true,
      device_bool_false_test: false,
      device_integer_test: 1,
      device_integer_twelve_test: 12,
      device_double_test: 1.345,
      device_very_long_double_test: 1763636.3442,
    });
    expect(Number.isInteger(m.fix.attributes.device_integer_twelve_test)).toBe(true);
  });

  it('J3: -1 speed, heading and battery level mean unknown', () => {
    const m = valid(json('J3'));
    expect(m.uniqueId).toBe('658765');
    expect(m.fix.speed).toBe(0);
    expect(m.fix.course).toBe(0);
    expect(m.fix.attributes.batteryLevel).toBeUndefined();
    expect(m.fix.attributes.mock).toBe(true);
    expect(m.fix.attributes.charge).toBeUndefined();
  });

  it('J4: m/s converted to knots', () => {
    const m = valid(json('J4'));
    expect(m.fix.speed).toBeCloseTo(18.67 * MPS_TO_KNOTS, 9);
    expect(m.fix.speed).toBeCloseTo(36.29, 2);
    expect(m.fix.course).toBe(63);
    expect(m.fix.attributes.batteryLevel).toBe(79);
    expect(m.fix.latitude).toBe(-6.1148096);
  });
});

describe('OsmAnd JSON decoding rules', () => {
  it('missing device_id gives no message; broken JSON and bad coordinates throw', () => {
    expect(decodeJsonText('{"location":{}}', NOW)).toBeNull();
    expect(() => decodeJsonText('{"device_id":', NOW)).toThrow(/JSON/);
    expect(() => decodeJsonText('[1,2]', NOW)).toThrow(DecodeError);
    expect(() => decodeJsonText('{"device_id":"1","location":{"coords":{"latitude":95,"longitude":0}}}', NOW)).toThrow(/latitude/);
  });

  it('no coords is an outdated position; charging sets charge', () => {
    const m = decodeJsonText('{"device_id":"1","location":{"battery":{"level":0.5,"is_charging":true}}}', NOW)!;
    expect(m.fix.outdated).toBe(true);
    expect(m.fix.fixTime).toBe(NOW);
    expect(m.fix.attributes).toEqual({ batteryLevel: 50, charge: true });
  });
});
