// Suntech's legacy layouts, whose header is the model and the report type run together
// (`ST300STT`, `SA200ALT`, `ST340UEX`, `ST3330CMD`…):
//   <MODEL><TYPE>;DEV_ID;[MODEL_ID;]SW_VER;YYYYMMDD;HH:MM:SS;CELL[;MCC;MNC;LAC;RX_LVL];LAT;LON;
//   SPD;CRS;SATT;FIX;DIST;PWR_VOLT;IO;<type fields>[;H_METER;BCK_VOLT;MSG_TYPE…]
// SA200 has no model id, ST600 sends the whole serving cell; both are found by where the date
// and the signed latitude stand. IO is `ignition in1 in2 in3 out1 out2` as 0/1 characters.
// `<MODEL>CMD;Res;DEV_ID;…` answers a command; the ST9xx asset trackers have their own layout.
import { alertAlarm, emergencyAlarm } from './suntech-alarms.ts';
import { readHourMeter, readSerialData } from './suntech-extras.ts';
import { COORDINATE, decimal, hex, instantOf, integer, ioAttributes, isDateTime, locatedFix, locatedOf, outdatedFix } from './suntech-fields.ts';
import { LOCATED_TYPES, type SuntechReport } from './suntech-report.ts';

/** Index of the date of a `YYYYMMDD;HH:MM:SS` pair at or after `from` (a few fields on), or -1. */
function dateIndex(values: readonly string[], from: number): number {
  for (let i = from; i < from + 3 && i < values.length; i += 1) if (isDateTime(values, i)) return i;
  return -1;
}

/** Index of the signed latitude after the time at `timeIndex` (the cell fields sit between), or -1. */
function latitudeIndex(values: readonly string[], timeIndex: number): number {
  for (let i = timeIndex + 1; i <= timeIndex + 6 && i < values.length; i += 1) if (COORDINATE.test(values[i]!)) return i;
  return -1;
}

/** A command's answer: everything after the device id. */
function answer(uniqueId: string, reply: readonly string[], now: number): SuntechReport {
  const fix = outdatedFix(now);
  fix.attributes.result = reply.join(';');
  return { uniqueId, fix };
}

/** The model prefix of a legacy header (`ST300STT` → `ST300`), for commands in the same dialect. */
export const legacyModel = (header: string): string => header.slice(0, -3);

export function decodeLegacy(values: readonly string[], now: number): SuntechReport {
  const header = values[0]!;
  const type = header.slice(-3);
  if (values[1] === 'Res') return values[2] ? answer(values[2], values.slice(3), now) : {};
  const uniqueId = values[1];
  if (!uniqueId) return {};
  if (type === 'ALV') return { uniqueId, keepAlive: true };
  // ST4xx firmwares put seven cells before the date: a layout not read here.
  if (!LOCATED_TYPES.has(type) || header.startsWith('ST4')) return { uniqueId };
  const date = dateIndex(values, 2);
  if (date < 0) return { uniqueId };
  const lat = latitudeIndex(values, date + 1);
  const at = (offset: number) => (lat < 0 ? undefined : values[lat + offset]);
  const fix = locatedFix(locatedOf(instantOf(values[date], values[date + 1]), {
    latitude: at(0), longitude: at(1), speedKmh: at(2), course: at(3), satellites: at(4), fix: at(5),
  }));
  const attributes = fix.attributes;
  if (date > 2) attributes.versionFw = values[date - 1];
  const cell = lat > 0 ? values.slice(date + 2, lat) : [];
  if (cell.length === 5) {
    // ST600: CELL (hex); MCC; MNC; LAC (hex); RX_LVL.
    const [cid, mcc, mnc, lac, rx] = [hex(cell[0]), integer(cell[1]), integer(cell[2]), hex(cell[3]), integer(cell[4])];
    if (cid && mcc !== null && mnc !== null && lac !== null) {
      fix.network = { cellTowers: [{ cellId: cid, mobileCountryCode: mcc, mobileNetworkCode: mnc, locationAreaCode: lac, ...(rx !== null ? { signalStrength: rx } : {}) }] };
    }
  }
  if (lat < 0) return { uniqueId, fix };
  const odometer = integer(at(6));
  if (odometer !== null) attributes.odometer = odometer;
  const power = decimal(at(7));
  if (power !== null) attributes.power = power;
  const io = at(8);
  if (io && /^[01]{6,}$/.test(io)) {
    const flags = [...io].map((c) => c === '1');
    ioAttributes(attributes, flags[0]!, flags.slice(1, 4), flags.slice(4, 6));
  }
  let next = lat + 9;
  const id = integer(values[next]);
  switch (type) {
    case 'STT':
      if (integer(values[next + 1]) !== null) attributes.index = integer(values[next + 1]);
      next += 2;
      break;
    case 'EMG':
      if (emergencyAlarm(id)) attributes.alarm = emergencyAlarm(id);
      else if (id !== null) attributes.emergencyId = id;
      next += 1;
      break;
    case 'ALT':
      if (alertAlarm(id)) attributes.alarm = alertAlarm(id);
      else if (id !== null) attributes.alertId = id;
      next += 1;
      break;
    case 'EVT':
      if (id !== null) attributes.event = id;
      next += 1;
      break;
    case 'UEX':
      next = readSerialData(values, next, attributes);
      break;
  }
  readHourMeter(values, next, attributes);
  return { uniqueId, fix };
}

/** ST9xx: `ST910;Location|Emergency|Alert|Alive;DEV_ID;[SW_VER;]YYYYMMDD;HH:MM:SS;[CELL;]LAT;LON;SPD;CRS;FIX;…`. */
export function decodeSt9(values: readonly string[], now: number): SuntechReport {
  const [, kind, uniqueId] = values;
  if (!uniqueId) return {};
  if (kind === 'Alive') return { uniqueId };
  if (kind !== 'Location' && kind !== 'Emergency' && kind !== 'Alert') return { uniqueId };
  const date = dateIndex(values, 3);
  const lat = date < 0 ? -1 : latitudeIndex(values, date + 1);
  if (lat < 0) return { uniqueId, fix: outdatedFix(now) };
  const fix = locatedFix(locatedOf(instantOf(values[date], values[date + 1]), {
    latitude: values[lat], longitude: values[lat + 1], speedKmh: values[lat + 2], course: values[lat + 3], fix: values[lat + 4],
  }));
  if (kind !== 'Location') fix.attributes.alarm = 'general';
  return { uniqueId, fix };
}
