// Splitting Teltonika's byte stream into frames.
//
// TCP carries three kinds of frame, told apart by their first bytes:
//   00 0F + 15 ASCII digits          the IMEI handshake (any non-zero 2-byte length)
//   00 00 00 00 + length + … + CRC   an AVL packet (or a codec 12/13 message)
//   FF                               a one-byte keep-alive
// UDP datagrams start with their own 2-byte length (of the bytes that follow it): one frame each.
import { FrameError, type ProtocolSession } from '../protocol.ts';
import { CRC_BYTES, MAX_FRAME_BYTES, MAX_IMEI_BYTES, MIN_DATA_BYTES, PING_BYTE, TCP_HEADER_BYTES } from './constants.ts';

/** The smallest UDP datagram: length, packet id, unused byte, AVL packet id, IMEI length, and a data field. */
const MIN_UDP_LENGTH = 2 + 1 + 1 + 2 + MIN_DATA_BYTES;

function udpFrameLength(buffer: Buffer, offset: number): number {
  if (buffer.length - offset < 2) return 0;
  const length = buffer.readUInt16BE(offset);
  if (length < MIN_UDP_LENGTH) throw new FrameError(`Teltonika UDP datagram too short (length ${length})`);
  if (length + 2 > MAX_FRAME_BYTES) throw new FrameError(`Teltonika UDP datagram of ${length + 2} bytes exceeds ${MAX_FRAME_BYTES}`);
  return buffer.length - offset >= length + 2 ? length + 2 : 0;
}

function tcpFrameLength(buffer: Buffer, offset: number): number {
  const available = buffer.length - offset;
  if (available < 1) return 0;
  if (buffer[offset] === PING_BYTE) return 1;
  if (available < 2) return 0;
  const first = buffer.readUInt16BE(offset);
  if (first !== 0) {
    if (first > MAX_IMEI_BYTES) throw new FrameError(`Not a Teltonika frame: IMEI length ${first}`);
    return available >= 2 + first ? 2 + first : 0;
  }
  if (available < 4) return 0;
  if (buffer.readUInt16BE(offset + 2) !== 0) throw new FrameError('Not a Teltonika frame: the preamble is not 4 zero bytes');
  if (available < TCP_HEADER_BYTES) return 0;
  const dataLength = buffer.readUInt32BE(offset + 4);
  if (dataLength < MIN_DATA_BYTES) throw new FrameError(`Teltonika data length ${dataLength} is too short`);
  const total = TCP_HEADER_BYTES + dataLength + CRC_BYTES;
  if (total > MAX_FRAME_BYTES) throw new FrameError(`Teltonika packet of ${total} bytes exceeds ${MAX_FRAME_BYTES}`);
  return available >= total ? total : 0;
}

export function frameLength(buffer: Buffer, offset: number, session: ProtocolSession): number {
  return session.transport === 'udp' ? udpFrameLength(buffer, offset) : tcpFrameLength(buffer, offset);
}
