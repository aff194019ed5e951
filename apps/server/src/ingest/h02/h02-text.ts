// H02 text frames: `*<maker>,<id>,<type>,…#` (makers HQ, TH, hq…). The type picks the layout;
// every frame names its device. V4 frames answer a command: what sits between `V4` and the
// location (`S20,DONE,130305`) is the device's reply, kept as `result`.
import { DecodeError, type DecodedFix } from '../decoded.ts';
import { fixInRange } from '../fix-in-range.ts';
import { FrameError, type FrameResult } from '../protocol.ts';
import { h02Outdated } from './h02-fields.ts';
import { decodeLocation, locationStart } from './h02-location.ts';
import { heartbeatAnswer, reportAnswer } from './h02-replies.ts';
import { decodeCellsV3, decodeHeartbeat, decodeLink, decodeNeighbours, decodeVp1 } from './h02-reports.ts';

const MAKER = /^[A-Za-z]{2}$/;
const ID = /^[0-9A-Za-z]{1,20}$/;

/** The location and, for a V4 answer, the reply text of a `V…` report. */
function decodeLocated(type: string, fields: readonly string[], now: number): DecodedFix | null {
  const start = locationStart(fields, 3);
  const fix = start >= 0 ? decodeLocation(fields, start, now) : null;
  if (type !== 'V4') return fix;
  const reply = fields.slice(3, start >= 0 ? start : fields.length).join(',');
  if (reply === '') return fix;
  const answered = fix ?? h02Outdated(now, null);
  answered.attributes.result = reply;
  return answered;
}

export function decodeText(frame: Buffer, now: number): FrameResult {
  const text = frame.toString('latin1').replace(/[\r\n]+$/, '');
  if (text[0] !== '*' || !text.endsWith('#')) throw new FrameError('H02 text frame without its `*` and `#`');
  const fields = text.slice(1, -1).split(',');
  const [maker = '', id = '', type = ''] = fields;
  if (!MAKER.test(maker)) throw new DecodeError('H02 frame without its maker letters');
  if (id !== '' && !ID.test(id)) throw new DecodeError('H02 frame with a malformed device id');
  const result: FrameResult = id === '' ? {} : { uniqueId: id };
  let fix: DecodedFix | null = null;
  let ack: Buffer | undefined;
  switch (type) {
    case 'HTBT':
    case 'V0':
      fix = decodeHeartbeat(fields, now);
      if (id) ack = heartbeatAnswer(id, type);
      break;
    case 'NBR':
      fix = decodeNeighbours(fields, now);
      if (id) ack = reportAnswer(id, 'NBR', now);
      break;
    case 'LINK':
      fix = decodeLink(fields, now);
      break;
    case 'V3':
      fix = decodeCellsV3(fields, now);
      break;
    case 'VP1':
      fix = decodeVp1(fields, now);
      break;
    default:
      // Other letters (XT, BS, BASE…) name the device and carry nothing we read.
      if (type.startsWith('V')) fix = decodeLocated(type, fields, now);
      if (type === 'V1' && id) ack = reportAnswer(id, 'V1', now);
  }
  if (fix) result.fixes = [fixInRange(fix, now)];
  if (ack) result.ack = ack;
  return result;
}
