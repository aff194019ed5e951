// Suntech's universal layout (ST4300, ST8300, newer ST300 firmwares): `TYPE;DEV_ID;HDR_MASK;…`
// where the hex header mask says which fields follow, in this order (bit: field):
//   1 model, 2 firmware, 3 message type (0 = stored, 1 = real time), 4 date, 5 time,
//   6 cell id (hex), 7 MCC, 8 MNC, 9 LAC (hex), 10 RX level, 11 latitude, 12 longitude,
//   13 speed (km/h), 14 course, 15 satellites, 16 fix, 17 inputs, 18 outputs (binary digits,
//   input/output 1 last; input 0 is the ignition), 19–21 type fields (STT: mode, report
//   reason, message number; ALT/EMG/EVT: id, modifier, data), 22 reserved, 23 assign map
//   (a hex mask of extra fields, kept as io<N>).
// UEX reports put their serial data (`LEN;DATA;CHECKSUM`) after the outputs. `RES;DEV_ID;…`
// answers a command; `ALV;DEV_ID` is the keep-alive.
import { IBUTTON_INSERTED, alertAlarm, emergencyAlarm } from './suntech-alarms.ts';
import { readSerialData } from './suntech-extras.ts';
import { bits, hex, instantOf, integer, ioAttributes, locatedFix, locatedOf, outdatedFix } from './suntech-fields.ts';
import { LOCATED_TYPES, type SuntechReport } from './suntech-report.ts';

/** Header types of the universal layout (a legacy header is the model and the type together). */
export const UNIVERSAL_TYPES: ReadonlySet<string> = new Set(['STT', 'ALT', 'EMG', 'EVT', 'UEX', 'ALV', 'RES', 'BLE', 'HTE', 'CRR', 'DEX']);

/** Fields of the universal layout, by header-mask bit. */
const FIELDS = [
  'model', 'firmware', 'messageType', 'date', 'time', 'cell', 'mcc', 'mnc', 'lac', 'rx', 'latitude', 'longitude',
  'speed', 'course', 'satellites', 'fix', 'inputs', 'outputs', 'typeId', 'typeModifier', 'typeData', 'reserved',
] as const;

type Field = (typeof FIELDS)[number];

export function decodeUniversal(values: readonly string[], now: number): SuntechReport {
  const [type = '', uniqueId] = values;
  if (!uniqueId) return {};
  if (type === 'ALV') return { uniqueId, keepAlive: true };
  if (type === 'RES') {
    const fix = outdatedFix(now);
    fix.attributes.result = values.slice(2).join(';');
    return { uniqueId, fix };
  }
  const mask = hex(values[2]);
  if (!LOCATED_TYPES.has(type) || mask === null) return { uniqueId };

  let next = 3;
  const field: Partial<Record<Field, string>> = {};
  const readUpTo = (last: Field) => {
    const lastBit = FIELDS.indexOf(last) + 1;
    for (let bit = 1; bit <= lastBit; bit += 1) {
      const name = FIELDS[bit - 1]!;
      if (name in field || ((mask >>> bit) & 1) === 0) continue;
      field[name] = values[next++];
    }
  };
  readUpTo('outputs');
  const time = field.date !== undefined || field.time !== undefined ? instantOf(field.date, field.time) : now;
  const fix = locatedFix(locatedOf(time, {
    latitude: field.latitude, longitude: field.longitude, speedKmh: field.speed, course: field.course,
    satellites: field.satellites, fix: field.fix,
  }));
  const attributes = fix.attributes;
  if (field.firmware) attributes.versionFw = field.firmware;
  if (field.messageType === '0') attributes.archive = true;
  const [cid, mcc, mnc, lac, rx] = [hex(field.cell), integer(field.mcc), integer(field.mnc), hex(field.lac), integer(field.rx)];
  if (cid && mcc !== null && mnc !== null && lac !== null) {
    fix.network = { cellTowers: [{ cellId: cid, mobileCountryCode: mcc, mobileNetworkCode: mnc, locationAreaCode: lac }] };
  }
  if (rx !== null) attributes.rssi = rx;
  const inputs = bits(field.inputs);
  const outputs = bits(field.outputs);
  if (inputs) attributes.input = Number.parseInt(field.inputs!, 2);
  if (outputs) attributes.output = Number.parseInt(field.outputs!, 2);
  if (inputs || outputs) ioAttributes(attributes, inputs?.[0] ?? false, inputs?.slice(1, 4) ?? [], outputs?.slice(0, 2) ?? []);
  if (!inputs) delete attributes.ignition;

  if (type === 'UEX') {
    readSerialData(values, next, attributes);
    return { uniqueId, fix };
  }
  readUpTo('reserved');
  const id = integer(field.typeId);
  switch (type) {
    case 'STT':
      if (integer(field.typeData) !== null) attributes.index = integer(field.typeData);
      break;
    case 'ALT':
      if (alertAlarm(id)) attributes.alarm = alertAlarm(id);
      else if (id !== null) attributes.alertId = id;
      if (id === IBUTTON_INSERTED && field.typeData && /^[0-9A-Fa-f]{1,20}$/.test(field.typeData)) attributes.driverUniqueId = field.typeData;
      break;
    case 'EMG':
      if (emergencyAlarm(id)) attributes.alarm = emergencyAlarm(id);
      else if (id !== null) attributes.emergencyId = id;
      break;
    case 'EVT':
      if (id !== null) attributes.event = id;
      break;
  }
  if ((mask >>> 23) & 1) {
    const assigned = hex(values[next++]) ?? 0;
    for (let bit = 0; bit < 32; bit += 1) if ((assigned >>> bit) & 1 && next < values.length) attributes[`io${bit + 1}`] = values[next++];
  }
  return { uniqueId, fix };
}
