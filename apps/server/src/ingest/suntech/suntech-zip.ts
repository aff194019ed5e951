// Suntech "zip" reports: the binary form of a legacy status report (ST300 manual, section
// "Zip"). STX 0x02, a 2-byte length of what follows up to the ETX 0x03, then:
//   HDR 1 (0x10 status report) · DEV_ID 5 (BCD, padded) · MODEL 1 · SW_VER 2 ·
//   DATE_TIME 6 (binary year-2000, month, day, hour, minute, second) · CELL 3 (LAC 2, BSIC 1) ·
//   LAT 4 and LON 4 (1 byte of degrees + 3 BCD bytes of millionths) · SPD 3 and CRS 3 (2 bytes
//   integer + 1 BCD byte of hundredths; speed in km/h) · SATT_FIX 1 (bit 7 fix, bit 6 south,
//   bit 5 west, bits 0–4 satellites) · DIST 4 (metres) · PWR_VOLT 2 (volts + BCD hundredths) ·
//   IO 1 (bit 0 ignition, 1–3 inputs, 4–5 outputs) · MODE 1 · MSG_NUM 2 ·
//   and, when the hour meter is on, H_METER 4 (minutes) · BCK_VOLT 2 · MSG_TYPE 1.
// Other zip headers (alerts, events, the acknowledgement 0x15) are not documented enough to
// read: they only name their device.
import { DecodeError } from '../decoded.ts';
import { FrameError } from '../protocol.ts';
import { calendarInstant } from '../calendar-instant.ts';
import { ioAttributes, locatedFix } from './suntech-fields.ts';
import type { SuntechReport } from './suntech-report.ts';

export const ZIP_STX = 0x02;
const ZIP_ETX = 0x03;
const STATUS_REPORT = 0x10;
/** Body lengths (HDR … MSG_NUM, and with the hour-meter block) of a zip status report. */
const STATUS_BODY = 43;
const STATUS_BODY_WITH_HOURS = 50;

/** Two BCD digits of a byte, or NaN. */
function bcd(byte: number): number {
  const high = byte >> 4;
  const low = byte & 0x0f;
  return high > 9 || low > 9 ? Number.NaN : high * 10 + low;
}

export function decodeZip(frame: Buffer): SuntechReport {
  if (frame.length < 4) throw new FrameError('Suntech zip frame shorter than its header');
  const length = frame.readUInt16BE(1);
  if (frame.length !== length + 4 || frame[frame.length - 1] !== ZIP_ETX) throw new FrameError('Suntech zip frame without its ETX');
  if (length < 6) throw new DecodeError('Suntech zip frame too short for a device id');
  const digits = frame.subarray(4, 9).toString('hex');
  if (!/^\d{10}$/.test(digits)) throw new DecodeError('Suntech zip frame with a malformed device id');
  // Ids are 9 digits (the IMEI's last nine) padded with a 0 nibble.
  const uniqueId = digits.endsWith('0') ? digits.slice(0, 9) : digits;
  if (frame[3] !== STATUS_REPORT || (length !== STATUS_BODY && length !== STATUS_BODY_WITH_HOURS)) return { uniqueId };

  let at = 12;
  const u8 = () => frame[at++]!;
  const u16 = () => ((at += 2), frame.readUInt16BE(at - 2));
  const u32 = () => ((at += 4), frame.readUInt32BE(at - 4));
  const time = calendarInstant(2000 + u8(), u8(), u8(), u8(), u8(), u8()) ?? Number.NaN;
  at += 3; // serving cell: LAC and BSIC, without the country and network to place it
  const degrees = () => u8() + (bcd(u8()) * 1e4 + bcd(u8()) * 100 + bcd(u8())) / 1e6;
  const latitude = degrees();
  const longitude = degrees();
  const hundredths = () => u16() + bcd(u8()) / 100;
  const speedKmh = hundredths();
  const course = hundredths();
  const satFix = u8();
  const fix = locatedFix({
    time,
    latitude: (satFix & 0x40) !== 0 ? -latitude : latitude,
    longitude: (satFix & 0x20) !== 0 ? -longitude : longitude,
    speedKmh,
    course,
    satellites: satFix & 0x1f,
    valid: (satFix & 0x80) !== 0,
  });
  const attributes = fix.attributes;
  attributes.odometer = u32();
  attributes.power = u8() + bcd(u8()) / 100;
  const io = u8();
  const bit = (n: number) => ((io >> n) & 1) === 1;
  ioAttributes(attributes, bit(0), [bit(1), bit(2), bit(3)], [bit(4), bit(5)]);
  at += 1; // mode
  attributes.index = u16();
  if (length === STATUS_BODY_WITH_HOURS) {
    attributes.hours = u32() * 60_000;
    attributes.battery = u8() + bcd(u8()) / 100;
    if (u8() === 0) attributes.archive = true;
  }
  if (!Number.isFinite(attributes.power as number)) delete attributes.power;
  if (!Number.isFinite(attributes.battery as number)) delete attributes.battery;
  return { uniqueId, fix };
}
