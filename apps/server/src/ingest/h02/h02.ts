// H02 (Sinotrack ST-901/902/903 and the many TK-style clones): text `*HQ,…#` and binary `$`
// reports over TCP and UDP on Traccar's port 5013. Dates come from the tracker's clock with no
// zone (`clock: 'device'`: the device's `decoder.timezone` corrects trackers set to local time).
import { fixInRange } from '../fix-in-range.ts';
import { FrameError, type ProtocolDefinition } from '../protocol.ts';
import { decodeBinary } from './h02-binary.ts';
import { H02_PROTOCOL } from './h02-fields.ts';
import { BINARY_MARKER, H02_MAX_FRAME, TEXT_MARKER, h02FrameLength } from './h02-framing.ts';
import { h02CommandText } from './h02-replies.ts';
import { decodeText } from './h02-text.ts';

export const h02Protocol: ProtocolDefinition = {
  name: H02_PROTOCOL,
  defaultPort: 5013,
  transports: ['tcp', 'udp'],
  logAs: 'text',
  maxFrameBytes: H02_MAX_FRAME,
  frameLength: h02FrameLength,
  decode(frame, _session, now) {
    const first = frame[0];
    if (first === TEXT_MARKER) return decodeText(frame, now);
    if (first === BINARY_MARKER) {
      const { uniqueId, fix } = decodeBinary(frame, now);
      return { uniqueId, fixes: [fixInRange(fix, now)] };
    }
    // Line ends that arrived after their frame: nothing to read.
    if (frame.every((b) => b === 0x0d || b === 0x0a)) return {};
    throw new FrameError('not an H02 frame');
  },
  encodeCommand(command, session) {
    if (!session.uniqueId) return null;
    const text = h02CommandText(command, session.uniqueId, Date.now());
    return text === null ? null : Buffer.from(text, 'latin1');
  },
};
