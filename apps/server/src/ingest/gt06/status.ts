// The status bytes of GT06 status and alarm packets: terminal information, voltage level, GSM
// signal and alarm code, into Traccar's attribute keys.
import { ALARM_CODES, TERMINAL_ALARMS } from './constants.ts';

/** What one packet says, gathered before it becomes a fix. */
export interface Facts {
  attributes: Record<string, unknown>;
  /** Alarm names in the order met; stored comma-separated, as Traccar joins several. */
  alarms: string[];
}

export const newFacts = (): Facts => ({ attributes: {}, alarms: [] });

export function addAlarm(facts: Facts, alarm: string | undefined): void {
  if (alarm && !facts.alarms.includes(alarm)) facts.alarms.push(alarm);
}

/** The packet's attributes with its alarms folded into `alarm`. */
export function attributesOf(facts: Facts): Record<string, unknown> {
  return facts.alarms.length > 0 ? { ...facts.attributes, alarm: facts.alarms.join(',') } : facts.attributes;
}

/**
 * Terminal information: bit 0 armed (defence on), 1 ACC (ignition), 2 charging (external power
 * connected), 3–5 an alarm state, 6 GPS tracking on, 7 oil and electricity cut (`blocked`: what
 * an engine stop sets).
 */
export function readTerminalInfo(facts: Facts, info: number): void {
  facts.attributes.armed = (info & 0x01) !== 0;
  facts.attributes.ignition = (info & 0x02) !== 0;
  facts.attributes.charge = (info & 0x04) !== 0;
  facts.attributes.blocked = (info & 0x80) !== 0;
  addAlarm(facts, TERMINAL_ALARMS[(info >> 3) & 0x07]);
}

/**
 * Voltage level: 0–6 on the units Concox documents (6 = full), which Traccar turns into a
 * percentage; units that send 7–100 send the percentage itself. Anything above says nothing.
 */
export function readVoltageLevel(facts: Facts, level: number): void {
  if (level <= 6) facts.attributes.batteryLevel = Math.floor((level * 100) / 6);
  else if (level <= 100) facts.attributes.batteryLevel = level;
}

/** GSM signal: 0 (none) to 4 (strong), kept as `rssi` like Traccar. */
export function readGsmSignal(facts: Facts, signal: number): void {
  facts.attributes.rssi = signal;
}

export function readAlarmCode(facts: Facts, code: number): void {
  addAlarm(facts, ALARM_CODES[code]);
}

/** Terminal info, voltage level, GSM signal and alarm code, as far as `end` allows: the status block. */
export function readStatusBlock(facts: Facts, frame: Buffer, at: number, end: number): void {
  if (at < end) readTerminalInfo(facts, frame[at]!);
  if (at + 1 < end) readVoltageLevel(facts, frame[at + 1]!);
  if (at + 2 < end) readGsmSignal(facts, frame[at + 2]!);
  if (at + 3 < end) readAlarmCode(facts, frame[at + 3]!);
}
