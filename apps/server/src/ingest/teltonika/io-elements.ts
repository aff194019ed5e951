// The fixed-size IO elements (AVL ids) of Teltonika's FMB/FMC/FMM devices mapped to Traccar's
// attribute keys, so computed attributes, notifications and reports written for Traccar see
// the same names. Ids Traccar leaves as `io<N>` stay `io<N>` here too (users' expressions
// refer to them by that name); unknown ids become `io<N>` with the raw unsigned value.
//
// Values a key's domain range refuses (battery level over 100 %, an odometer beyond any
// vehicle's, …) are left out rather than refusing the whole record: the rest of it is good.
import { knotsFromKmh } from '@rastro/domain/units';
import { inRange, type RangeName } from '@rastro/domain/schemas/ranges';
import type { DecodedFix } from '../decoded.ts';
import { ioValue, signed, unsigned } from './io-values.ts';

/** What one record's IO elements write to. */
export interface IoContext {
  fix: DecodedFix;
  /** Serving cell parts (decimal text when too large for a number), assembled into `fix.network` once every element is read. */
  cell: { lac?: number | string; cid?: number | string; lte?: boolean };
}

type IoHandler = (ctx: IoContext, raw: Buffer) => void;

/** Adds an alarm to the comma-separated `alarm` attribute (one record may raise several). */
export function addAlarm(attributes: Record<string, unknown>, alarm: string): void {
  const current = attributes.alarm;
  attributes.alarm = typeof current === 'string' && current !== '' ? `${current},${alarm}` : alarm;
}

const flag = (key: string): IoHandler => ({ fix }, raw) => {
  fix.attributes[key] = unsigned(raw) > 0;
};
const number = (key: string, divisor = 1, range?: RangeName): IoHandler => ({ fix }, raw) => {
  const value = unsigned(raw) / divisor;
  if (!range || inRange(range, value)) fix.attributes[key] = value;
};
const signedNumber = (key: string, divisor = 1): IoHandler => ({ fix }, raw) => {
  fix.attributes[key] = signed(raw) / divisor;
};
const alarmWhenSet = (alarm: string): IoHandler => ({ fix }, raw) => {
  if (unsigned(raw) > 0) addAlarm(fix.attributes, alarm);
};

/** Teltonika's "Green driving type" (253). */
const GREEN_DRIVING_ALARMS: Record<number, string> = { 1: 'hardAcceleration', 2: 'hardBraking', 3: 'hardCornering' };

/**
 * iButton id (78): sent least significant byte first, shown (as Traccar does) as 16 hex digits
 * most significant first — the family code last, as printed on the key. 0 = no key present.
 */
const iButton: IoHandler = ({ fix }, raw) => {
  if (raw.every((b) => b === 0)) return;
  fix.attributes.driverUniqueId = Buffer.from(raw).reverse().toString('hex').toUpperCase();
};

export const IO_ELEMENTS: ReadonlyMap<number, IoHandler> = new Map<number, IoHandler>([
  [1, flag('in1')], // Digital Input 1
  [2, flag('in2')],
  [3, flag('in3')],
  [4, flag('in4')],
  [9, number('adc1', 1000)], // Analog Input 1, mV → V
  [10, number('adc2', 1000)],
  [12, number('fuelUsed', 1000)], // Fuel Used GPS, ml → l
  [13, number('fuelConsumption', 100)], // Fuel Rate GPS, 0.01 l/100 km
  [16, number('odometer', 1, 'odometer')], // Total Odometer, m
  [17, signedNumber('axisX')], // Axis X, mG
  [18, signedNumber('axisY')],
  [19, signedNumber('axisZ')],
  [21, number('rssi')], // GSM Signal, 0–5
  [24, ({ fix }, raw) => { // Speed (GNSS), km/h: Traccar takes it over the record's speed
    const knots = knotsFromKmh(unsigned(raw));
    if (inRange('speed', knots)) fix.speed = knots;
  }],
  [25, signedNumber('bleTemp1', 100)], // BLE Temperature #1, 0.01 °C
  [26, signedNumber('bleTemp2', 100)],
  [27, signedNumber('bleTemp3', 100)],
  [28, signedNumber('bleTemp4', 100)],
  [66, number('power', 1000)], // External Voltage, mV → V
  [67, number('battery', 1000)], // Battery Voltage, mV → V
  [68, number('batteryCurrent', 1000)], // Battery Current, mA → A
  [72, signedNumber('temp1', 10)], // Dallas Temperature 1, 0.1 °C
  [73, signedNumber('temp2', 10)],
  [74, signedNumber('temp3', 10)],
  [75, signedNumber('temp4', 10)],
  [78, iButton],
  [80, number('dataMode')], // Data Mode: 0 home on stop … 5 unknown on move
  [113, number('batteryLevel', 1, 'battery')], // Battery Level, %
  [175, ({ fix }, raw) => addAlarm(fix.attributes, unsigned(raw) > 0 ? 'geofenceEnter' : 'geofenceExit')], // Auto Geofence
  // Digital Output 1: also `blocked`, the engine cut, as engineStop/engineResume switch it
  // (`setdigout 1`/`0`, commands.ts): a record after an engine stop confirms it.
  [179, ({ fix }, raw) => {
    fix.attributes.out1 = fix.attributes.blocked = unsigned(raw) > 0;
  }],
  [180, flag('out2')],
  [181, number('pdop', 10, 'hdop')], // GNSS PDOP, 0.1
  [182, number('hdop', 10, 'hdop')], // GNSS HDOP, 0.1
  [199, number('tripOdometer', 1, 'odometer')], // Trip Odometer, m
  [200, number('sleepMode')], // Sleep Mode: 0 none, 1 GPS sleep, 2 deep sleep, 3 online sleep, 4 ultra sleep
  [205, ({ cell }, raw) => { cell.cid = ioValue(raw); cell.lte = false; }], // GSM Cell ID
  [206, ({ cell }, raw) => { cell.lac = ioValue(raw); }], // GSM Area Code
  [636, ({ cell }, raw) => { cell.cid = ioValue(raw); cell.lte = true; }], // UMTS/LTE Cell ID
  [236, alarmWhenSet('general')], // Alarm
  [239, flag('ignition')], // Ignition
  [240, flag('motion')], // Movement
  [241, number('operator')], // Active GSM Operator (MCC + MNC)
  [246, alarmWhenSet('tow')], // Towing
  [247, alarmWhenSet('accident')], // Crash Detection (any crash or crash trace)
  [249, alarmWhenSet('jamming')], // Jamming
  [251, alarmWhenSet('idle')], // Idling
  [252, alarmWhenSet('powerCut')], // Unplug (external power cut)
  [253, ({ fix }, raw) => { // Green Driving Type
    const alarm = GREEN_DRIVING_ALARMS[unsigned(raw)];
    if (alarm) addAlarm(fix.attributes, alarm);
  }],
]);

/** Applies one fixed-size element: its mapped key, or `io<N>` for an id we do not know. */
export function applyIoElement(ctx: IoContext, id: number, raw: Buffer): void {
  const handler = IO_ELEMENTS.get(id);
  if (handler) handler(ctx, raw);
  else ctx.fix.attributes[`io${id}`] = ioValue(raw);
}

/**
 * The serving cell (205/636 + 206), when the operator (241, MCC followed by MNC) says which
 * network it belongs to; without it the parts stay as `io205`/`io206`/`io636`.
 */
export function applyCell(ctx: IoContext): void {
  const { lac, cid, lte } = ctx.cell;
  const operator = ctx.fix.attributes.operator;
  // MCC (3 digits) + MNC (2 or 3): 1000–999999.
  const known = typeof operator === 'number' && Number.isInteger(operator) && operator >= 1000 && operator <= 999_999;
  if (typeof lac === 'number' && typeof cid === 'number' && known && lac > 0 && cid > 0) {
    const digits = String(operator);
    ctx.fix.network = {
      radioType: lte ? 'lte' : 'gsm',
      considerIp: false,
      cellTowers: [{
        cellId: cid,
        locationAreaCode: lac,
        mobileCountryCode: Number(digits.slice(0, 3)),
        mobileNetworkCode: Number(digits.slice(3)),
      }],
    };
  } else {
    if (lac !== undefined) ctx.fix.attributes.io206 = lac;
    if (cid !== undefined) ctx.fix.attributes[lte ? 'io636' : 'io205'] = cid;
  }
}
