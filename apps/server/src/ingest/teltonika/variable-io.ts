// Codec 8E's variable-length IO elements: the vehicle's VIN, its trouble codes, and the BLE
// sensor tags (EYE sensors and other beacons) a device reports. Anything else is kept as
// `io<N>` with the bytes in hex, as Traccar does.
import { FrameError } from '../protocol.ts';
import { ByteReader } from './byte-reader.ts';

/** Ids that carry BLE sensor tags: a header byte, then per tag its length and (id, length, value) parameters. */
const BLE_TAG_IDS = new Set([548, 10828, 10829, 10831, 11317]);
const VIN_IDS = new Set([256, 325]);
const DTC_ID = 281;

/** Text a device sent, without the control characters (NUL padding, …) that mean nothing on screen. */
// eslint-disable-next-line no-control-regex
const deviceText = (value: Buffer, encoding: 'latin1' | 'utf8'): string => value.toString(encoding).replace(/[\u0000-\u001f\u007f]/g, '');

/** A BLE tag parameter: the attribute suffix (`tag<N><suffix>`), the bytes its value needs, how to read it. */
type TagParameter = readonly [suffix: string, size: number, read: (value: Buffer) => unknown];

const TAG_PARAMETERS: ReadonlyMap<number, TagParameter> = new Map<number, TagParameter>([
  [0, ['Rssi', 1, (v) => v.readInt8(0)]],
  [1, ['Id', 1, (v) => v.toString('hex')]],
  [5, ['Name', 1, (v) => deviceText(v, 'utf8')]],
  [6, ['Temp', 2, (v) => v.readInt16BE(0)]],
  [7, ['Humidity', 1, (v) => v.readUInt8(0)]],
  [8, ['Magnet', 1, (v) => v.readUInt8(0) > 0]],
  [9, ['Motion', 1, (v) => v.readUInt8(0) > 0]],
  [10, ['MotionCount', 2, (v) => v.readUInt16BE(0)]],
  [11, ['Pitch', 1, (v) => v.readInt8(0)]],
  [12, ['AngleRoll', 2, (v) => v.readInt16BE(0)]],
  [13, ['LowBattery', 1, (v) => v.readUInt8(0)]],
  [14, ['Battery', 2, (v) => v.readUInt16BE(0)]],
  [15, ['Mac', 1, (v) => v.toString('hex')]],
]);

/** Parameter 2: a flags byte (bit 6 low battery, bit 7: a voltage byte follows, in 10 mV above 2 V). */
function tagFlags(attributes: Record<string, unknown>, prefix: string, value: Buffer): void {
  const flags = value[0];
  if (flags === undefined) return;
  if (flags & 0x40) attributes[`${prefix}LowBattery`] = true;
  if (flags & 0x80 && value.length > 1) attributes[`${prefix}Voltage`] = value[1]! * 10 + 2000;
}

/** The tags' attributes, or null when the lengths inside do not add up. */
function decodeTags(data: Buffer): Record<string, unknown> | null {
  const attributes: Record<string, unknown> = {};
  try {
    readTags(attributes, data);
  } catch (error) {
    if (error instanceof FrameError) return null;
    throw error;
  }
  return attributes;
}

function readTags(attributes: Record<string, unknown>, data: Buffer): void {
  const reader = new ByteReader(data);
  reader.u8(); // header
  for (let tag = 1; reader.remaining > 0; tag++) {
    const beacon = new ByteReader(reader.bytes(reader.u8()));
    const prefix = `tag${tag}`;
    while (beacon.remaining > 0) {
      const id = beacon.u8();
      const value = beacon.bytes(beacon.u8());
      if (id === 2) {
        tagFlags(attributes, prefix, value);
        continue;
      }
      const parameter = TAG_PARAMETERS.get(id);
      // Unknown parameters, and values too short for their type, are skipped.
      if (parameter && value.length >= parameter[1]) attributes[`${prefix}${parameter[0]}`] = parameter[2](value);
    }
  }
}

export function applyVariableIoElement(attributes: Record<string, unknown>, id: number, value: Buffer): void {
  if (VIN_IDS.has(id)) attributes.vin = deviceText(value, 'latin1');
  else if (id === DTC_ID) attributes.dtcs = deviceText(value, 'latin1').replaceAll(',', ' ');
  else {
    // Tag data laid out differently from what we know (other firmware) is kept raw rather
    // than refusing the packet: its length is known, so the rest of the record still reads.
    const tags = BLE_TAG_IDS.has(id) ? decodeTags(value) : null;
    if (tags) Object.assign(attributes, tags);
    else attributes[`io${id}`] = value.toString('hex');
  }
}
