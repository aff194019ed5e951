// Suntech (ST300/ST340/SA200 legacy firmwares, ST4300/ST8300 universal firmwares, ST9xx asset
// trackers) over TCP on Traccar's port 5011: `;`-separated text reports ending with CR, and
// binary "zip" status reports. Dates are UTC. Reports need no answer over TCP; keep-alives
// (`ALV`) are echoed, which firmwares set to check their link expect and others ignore.
// The dialect of the reports (universal or legacy, and the legacy model) is kept on the
// session, so commands go out in the dialect the tracker speaks.
import { DecodeError } from '../decoded.ts';
import { fixInRange } from '../fix-in-range.ts';
import { type FrameResult, type ProtocolDefinition, type ProtocolSession } from '../protocol.ts';
import { suntechCommandText, type SuntechDialect } from './suntech-commands.ts';
import { SUNTECH_PROTOCOL } from './suntech-fields.ts';
import { SUNTECH_MAX_FRAME, suntechFrameLength } from './suntech-framing.ts';
import { decodeLegacy, decodeSt9, legacyModel } from './suntech-legacy.ts';
import type { SuntechReport } from './suntech-report.ts';
import { UNIVERSAL_TYPES, decodeUniversal } from './suntech-universal.ts';
import { ZIP_STX, decodeZip } from './suntech-zip.ts';

const DIALECT_KEY = 'suntechDialect';
const HEADER = /^[A-Za-z0-9]{3,12}$/;
const ID = /^[0-9A-Za-z]{1,20}$/;
const ST9_KINDS = new Set(['Location', 'Emergency', 'Alert', 'Alive']);

/** The dialect a session's tracker reports in; universal until a report says otherwise. */
export function dialectOf(session: ProtocolSession): SuntechDialect {
  const dialect = session.state[DIALECT_KEY] as SuntechDialect | undefined;
  return dialect ?? { universal: true, model: '' };
}

function decodeTextReport(text: string, session: ProtocolSession, now: number): SuntechReport {
  const values = text.split(';');
  const header = values[0]!;
  if (!HEADER.test(header)) throw new DecodeError('Suntech report without a header');
  if (UNIVERSAL_TYPES.has(header)) {
    session.state[DIALECT_KEY] = { universal: true, model: '' } satisfies SuntechDialect;
    return decodeUniversal(values, now);
  }
  if (header.startsWith('ST9') && ST9_KINDS.has(values[1] ?? '')) {
    session.state[DIALECT_KEY] = { universal: false, model: header } satisfies SuntechDialect;
    return decodeSt9(values, now);
  }
  session.state[DIALECT_KEY] = { universal: false, model: legacyModel(header) } satisfies SuntechDialect;
  return decodeLegacy(values, now);
}

export const suntechProtocol: ProtocolDefinition = {
  name: SUNTECH_PROTOCOL,
  defaultPort: 5011,
  transports: ['tcp'],
  logAs: 'text',
  maxFrameBytes: SUNTECH_MAX_FRAME,
  frameLength: suntechFrameLength,
  decode(frame, session, now) {
    let report: SuntechReport;
    let text = '';
    if (frame[0] === ZIP_STX) {
      report = decodeZip(frame);
      // Zip reports come from legacy ST300-family firmwares.
      session.state[DIALECT_KEY] ??= { universal: false, model: 'ST300' } satisfies SuntechDialect;
    } else {
      text = frame.toString('latin1').replace(/^[\r\n]+/, '').replace(/\r$/, '');
      if (text === '') return {};
      report = decodeTextReport(text, session, now);
    }
    if (report.uniqueId !== undefined && !ID.test(report.uniqueId)) throw new DecodeError('Suntech report with a malformed device id');
    const result: FrameResult = {};
    if (report.uniqueId !== undefined) result.uniqueId = report.uniqueId;
    if (report.fix) result.fixes = [fixInRange(report.fix, now)];
    // The keep-alive's own header and id, whatever else a firmware put after them.
    if (report.keepAlive) result.ack = Buffer.from(`${text.split(';', 1)[0]};${report.uniqueId}\r`, 'latin1');
    return result;
  },
  encodeCommand(command, session) {
    if (!session.uniqueId) return null;
    const text = suntechCommandText(command, session.uniqueId, dialectOf(session));
    return text === null ? null : Buffer.from(text, 'latin1');
  },
};
