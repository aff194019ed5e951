// A GT06 unit's answer to an online command (0x80): the basic 0x15 packet (command length,
// server flag, ASCII text, language) or the extended 0x21 (server flag, encoding, text in
// ASCII or UTF-16). The text becomes the fix's `result` (→ a commandResult event); the reply
// to WHERE# ("Current position!Lat:N…,Lon:E…,Course:…,Speed:…,DateTime:…") also places it.
import { knotsFromKmh } from '@rastro/domain/units';
import type { DecodedFix } from '../decoded.ts';
import type { ProtocolSession } from '../protocol.ts';
import { deviceDate } from './clock.ts';
import { fixOf } from './fix.ts';
import type { Gt06Frame } from './framing.ts';
import type { GpsFix } from './gps-block.ts';
import { newFacts } from './status.ts';

const utf16 = new TextDecoder('utf-16be');

/** Control characters (NUL and the like, which units pad replies with) except tab and line breaks. */
// eslint-disable-next-line no-control-regex -- removing them is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

const cleanText = (text: string): string => text.replace(CONTROL, '').trim();

/**
 * 0x15: `<length> <server flag:4> <text> [<language:2>]`, the length counting flag and text.
 * Some units send a wrong length (0, or past the packet); their text then runs to the end.
 */
export function replyText15(frame: Buffer, { start, end }: Gt06Frame): string {
  const length = frame[start];
  if (length === undefined || start + 5 > end) return '';
  const textEnd = length >= 4 && start + 1 + length <= end ? start + 1 + length : end;
  return cleanText(frame.toString('latin1', start + 5, textEnd));
}

/** 0x21: `<server flag:4> <encoding> <text>`, encoding 1 = ASCII, otherwise UTF-16 big-endian. */
export function replyText21(frame: Buffer, { start, end }: Gt06Frame): string {
  if (start + 5 > end) return '';
  const text = frame[start + 4] === 1 ? frame.toString('latin1', start + 5, end) : utf16.decode(frame.subarray(start + 5, end));
  return cleanText(text);
}

const NUMBER = String.raw`(\d+(?:\.\d+)?)`;
const LOCATION_REPLY = new RegExp(
  String.raw`Lat:\s?([NS])\s?${NUMBER},\s?Lon:\s?([EW])\s?${NUMBER},\s?Course:\s?${NUMBER},\s?Speed:\s?${NUMBER}(?:\s?km/h)?,\s?` +
    String.raw`DateTime:\s?(\d{4})-(\d{1,2})-(\d{1,2}) +(\d{1,2}): ?(\d{1,2}): ?(\d{1,2})`,
  'i',
);

/** The position a WHERE# reply states (speed in km/h, the date on the unit's clock), or null. */
function replyPosition(text: string, session: ProtocolSession): GpsFix | null {
  const m = LOCATION_REPLY.exec(text);
  if (!m) return null;
  const n = m.slice(1).map((v) => (/^[\d.]+$/.test(v!) ? Number(v) : Number.NaN));
  const latitude = (m[1]!.toUpperCase() === 'S' ? -1 : 1) * n[1]!;
  const longitude = (m[3]!.toUpperCase() === 'W' ? -1 : 1) * n[3]!;
  const speed = knotsFromKmh(n[5]!);
  const date = deviceDate(session, n[6]!, n[7]!, n[8]!, n[9]!, n[10]!, n[11]!);
  return date && { ...date, valid: true, latitude, longitude, speed, course: n[4]! <= 360 ? n[4]! : 0, satellites: 0 };
}

/** The fix a reply's text makes: `result` (or `iccid` for the ICCID report), placed when it says where the unit is. */
export function replyFix(text: string, session: ProtocolSession, now: number): DecodedFix | null {
  if (text === '') return null;
  const facts = newFacts();
  if (text.startsWith('<ICCID:')) {
    facts.attributes.iccid = text.slice(7, 27);
    return fixOf(facts, null, null, now);
  }
  facts.attributes.result = text;
  return fixOf(facts, replyPosition(text, session), null, now);
}
