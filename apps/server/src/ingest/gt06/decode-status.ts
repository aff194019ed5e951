// GT06 status (0x13) and heartbeat (0x23) packets: no position, only the unit's state — an
// outdated fix the pipeline places at the last known position, carrying the attributes.
import type { DecodedFix } from '../decoded.ts';
import { fixOf } from './fix.ts';
import type { Gt06Frame } from './framing.ts';
import { newFacts, readStatusBlock, readTerminalInfo } from './status.ts';

/** A 16-byte 0x13 some units send: a layout of its own (battery percentage and a temperature). */
const LONG_STATUS_BYTES = 16;

/**
 * 0x13: terminal information, voltage level, GSM signal, alarm code, language — or the long
 * form (information, satellites, alarm, language, battery %, mode, voltage, …, temperature).
 */
export function decodeStatus(frame: Buffer, { start, end }: Gt06Frame, now: number): DecodedFix | null {
  if (end <= start) return null;
  const facts = newFacts();
  if (end - start === LONG_STATUS_BYTES) {
    const level = frame[start + 5]!;
    if (level <= 100) facts.attributes.batteryLevel = level;
    const raw = frame.readUInt16BE(start + 14);
    const degrees = (raw & 0x7fff) / 10;
    facts.attributes.temp1 = raw & 0x8000 ? degrees : -degrees;
  } else {
    readStatusBlock(facts, frame, start, end);
  }
  return fixOf(facts, null, null, now);
}

/**
 * 0x23 (GK310 and later units): terminal information, then when present the battery voltage
 * (2 bytes, hundredths of a volt) and the GSM signal. Traccar keeps only three bits of its
 * terminal information; the byte is the one 0x13 carries, so we read it whole — its oil/
 * electricity bit is what shows an engine stop took effect on units that send only heartbeats.
 */
export function decodeHeartbeat(frame: Buffer, { start, end }: Gt06Frame, now: number): DecodedFix | null {
  if (end <= start) return null;
  const facts = newFacts();
  readTerminalInfo(facts, frame[start]!);
  if (end - start >= 3) facts.attributes.battery = frame.readUInt16BE(start + 1) / 100;
  if (end - start >= 4) facts.attributes.rssi = frame[start + 3]!;
  return fixOf(facts, null, null, now);
}
