// GT06 information packets (0x94, normally in the extended `79 79` form): a sub-type, then its
// data. The sub-types whose layout Concox documents become attributes of an outdated fix:
//   0x00 external power voltage (2 bytes, hundredths of a volt) → `power`
//   0x04 terminal state as text (`ALM1=..;STA1=..;DYD=01;…`): DYD, the oil/electricity cut → `blocked`
//   0x05 door state (bit 0) → `door`
//   0x0A IMEI (8) + IMSI (8) + ICCID (10, BCD padded with F) → `iccid`
//   0x1B an RFID reader's frame: header, type, 4-byte card → `driverUniqueId`
// Other sub-types carry nothing we keep. Traccar answers none of them.
import type { DecodedFix } from '../decoded.ts';
import { fixOf } from './fix.ts';
import type { Gt06Frame } from './framing.ts';
import { newFacts, type Facts } from './status.ts';

function terminalState(facts: Facts, text: string): void {
  for (const pair of text.split(';')) {
    const [key, value] = pair.split('=');
    if (key?.trim() === 'DYD' && value !== undefined && /^[0-9a-f]{1,2}$/i.test(value.trim())) {
      facts.attributes.blocked = Number.parseInt(value.trim(), 16) !== 0;
    }
  }
}

export function decodeInfo(frame: Buffer, { start, end }: Gt06Frame, now: number): DecodedFix | null {
  if (end - start < 2) return null;
  const facts = newFacts();
  const data = start + 1;
  switch (frame[start]) {
    case 0x00:
      if (end - data >= 2) facts.attributes.power = frame.readUInt16BE(data) / 100;
      break;
    case 0x04:
      terminalState(facts, frame.toString('latin1', data, end));
      break;
    case 0x05:
      facts.attributes.door = (frame[data]! & 0x01) !== 0;
      break;
    case 0x0a:
      if (end - data >= 26) facts.attributes.iccid = frame.toString('hex', data + 16, data + 26).replaceAll('f', '');
      break;
    case 0x1b:
      // A letter first is a reader's serial number, not a card.
      if (end - data >= 6 && !/[A-Za-z]/.test(String.fromCharCode(frame[data]!))) {
        facts.attributes.driverUniqueId = frame.toString('hex', data + 2, data + 6);
      }
      break;
  }
  return Object.keys(facts.attributes).length > 0 ? fixOf(facts, null, null, now) : null;
}
