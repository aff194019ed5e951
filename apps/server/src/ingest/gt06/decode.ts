// One GT06 frame → what it means: the device it names (login), its fixes, and the answer the
// unit expects. Frames before a login on the connection are dropped unanswered, as Traccar does.
import { checkUniqueId, type DecodedFix } from '../decoded.ts';
import type { FrameResult, ProtocolSession } from '../protocol.ts';
import { rememberZone, zoneFromExtension } from './clock.ts';
import { MSG, NOT_ACKED } from './constants.ts';
import { decodeInfo } from './decode-info.ts';
import { decodeLocation, LOCATION_TYPES, RFID_CONTENT_BYTES } from './decode-location.ts';
import { replyFix, replyText15, replyText21 } from './decode-reply.ts';
import { decodeHeartbeat, decodeStatus } from './decode-status.ts';
import { ackFrame, buildFrame, frameParts, type Gt06Frame } from './framing.ts';
import { need } from './gps-block.ts';

/**
 * Login: the IMEI as 8 BCD bytes (a 0 nibble, then 15 digits), the unit's type code, and on
 * newer units a time-zone extension that dates the connection's next frames.
 */
function decodeLogin(frame: Buffer, { start, end, serial }: Gt06Frame, session: ProtocolSession): FrameResult {
  need(start, 8, end, 'login');
  const uniqueId = checkUniqueId(frame.toString('hex', start, start + 8).slice(1));
  rememberZone(session, end - start >= 12 ? zoneFromExtension(frame.readUInt16BE(start + 10)) : null);
  return { uniqueId, ack: ackFrame(MSG.LOGIN, serial) };
}

/** The answer to a time request (0x8A): the server's UTC date, `YY MM DD hh mm ss`. */
function timeAnswer(serial: number, now: number): Buffer {
  const d = new Date(now);
  const date = [d.getUTCFullYear() - 2000, d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()];
  return buildFrame(MSG.TIME_REQUEST, Uint8Array.from(date), serial);
}

/** Wi-Fi lists (0x17, 0x69) are answered with their own date echoed, in a frame with no length, serial or CRC. */
function wifiAnswer(frame: Buffer, type: number, { start, end }: Gt06Frame): Buffer | undefined {
  if (end - start < 6) return undefined;
  return Buffer.concat([Buffer.from([0x78, 0x78, 0x00, type]), frame.subarray(start, start + 6), Buffer.from([0x0d, 0x0a])]);
}

const withFix = (fix: DecodedFix | null, ack: Buffer | undefined): FrameResult => ({
  ...(fix ? { fixes: [fix] } : {}),
  ...(ack ? { ack } : {}),
});

function decodeBasic(frame: Buffer, parts: Gt06Frame, session: ProtocolSession, now: number): FrameResult {
  const { type, serial } = parts;
  const ack = NOT_ACKED.has(type) ? undefined : ackFrame(type, serial);
  if (LOCATION_TYPES.has(type)) {
    // An empty one (`78 78 05 12 <serial> <crc> 0D 0A`, the shape of an ack) has nothing to store.
    return withFix(parts.end > parts.start ? decodeLocation(frame, parts, session, now) : null, ack);
  }
  switch (type) {
    case MSG.WIFI:
      if (parts.end - parts.start === RFID_CONTENT_BYTES) return withFix(decodeLocation(frame, parts, session, now), ack);
      return withFix(null, wifiAnswer(frame, type, parts));
    case MSG.WIFI_2:
      return withFix(null, wifiAnswer(frame, type, parts));
    case MSG.STATUS:
      return withFix(decodeStatus(frame, parts, now), ack);
    case MSG.HEARTBEAT:
      return withFix(decodeHeartbeat(frame, parts, now), ack);
    case MSG.STRING:
      return withFix(replyFix(replyText15(frame, parts), session, now), ack);
    case MSG.INFO:
      return withFix(decodeInfo(frame, parts, now), undefined);
    case MSG.TIME_REQUEST:
      return withFix(null, timeAnswer(serial, now));
    default:
      // A type we do not read: answered all the same (but our own command types), so the unit moves on.
      return withFix(null, ack);
  }
}

function decodeExtended(frame: Buffer, parts: Gt06Frame, session: ProtocolSession, now: number): FrameResult {
  switch (parts.type) {
    case MSG.STRING_INFO:
      return withFix(replyFix(replyText21(frame, parts), session, now), undefined);
    case MSG.INFO:
      return withFix(decodeInfo(frame, parts, now), undefined);
    default:
      return {};
  }
}

export function decodeGt06(frame: Buffer, session: ProtocolSession, now: number): FrameResult {
  const parts = frameParts(frame);
  if (!parts.extended && parts.type === MSG.LOGIN) return decodeLogin(frame, parts, session);
  if (session.uniqueId === null) return {};
  return parts.extended ? decodeExtended(frame, parts, session, now) : decodeBasic(frame, parts, session, now);
}
