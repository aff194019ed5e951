// One Teltonika frame (as framing.ts delimited it) → what it means for the listener.
//
// TCP: the IMEI handshake names the device (answered 01, or 00 when it is unknown); AVL
// packets are checked against their CRC and answered with the record count (4 bytes); the
// FF keep-alive needs nothing. UDP: every datagram names its device and is answered
// `00 05 <packet id> 01 <AVL packet id> <record count>`.
import { checkUniqueId } from '../decoded.ts';
import { FrameError, type FrameResult, type ProtocolSession } from '../protocol.ts';
import { readAvlData } from './avl-data.ts';
import { ByteReader } from './byte-reader.ts';
import { CRC_BYTES, MIN_DATA_BYTES, PING_BYTE, TCP_HEADER_BYTES } from './constants.ts';
import { crc16Ibm } from './crc16-ibm.ts';

const IMEI_ACCEPTED = Buffer.from([0x01]);
const IMEI_REJECTED = Buffer.from([0x00]);

function readImei(reader: ByteReader): string {
  const imei = reader.bytes(reader.u16()).toString('latin1');
  if (imei === '') throw new FrameError('Teltonika frame with an empty IMEI');
  return checkUniqueId(imei);
}

function decodeHandshake(frame: Buffer): FrameResult {
  return { uniqueId: readImei(new ByteReader(frame)), ack: IMEI_ACCEPTED, reject: IMEI_REJECTED };
}

/** The 4-byte record count a TCP packet of positions is acknowledged with. */
function tcpAck(count: number): Buffer {
  const ack = Buffer.alloc(4);
  ack.writeUInt32BE(count);
  return ack;
}

function decodeTcpPacket(frame: Buffer, session: ProtocolSession, now: number): FrameResult {
  if (frame.length < TCP_HEADER_BYTES + MIN_DATA_BYTES + CRC_BYTES || frame.readUInt32BE(4) !== frame.length - TCP_HEADER_BYTES - CRC_BYTES) {
    throw new FrameError('Teltonika packet length does not match its data length field');
  }
  const end = frame.length - CRC_BYTES;
  const crc = frame.readUInt32BE(end);
  const expected = crc16Ibm(frame, TCP_HEADER_BYTES, end);
  if (crc !== expected) {
    throw new FrameError(`Bad Teltonika CRC ${crc.toString(16).padStart(8, '0')}, expected ${expected.toString(16).padStart(8, '0')}`);
  }
  // Data before the handshake belongs to no one: dropped unanswered, as Traccar does.
  if (session.uniqueId === null) return {};
  const data = readAvlData(new ByteReader(frame, TCP_HEADER_BYTES, end), now);
  return { fixes: data.fixes, ...(data.acknowledged ? { ack: tcpAck(data.count) } : {}) };
}

/** The answer to a UDP datagram: length 5, its packet id, 01, its AVL packet id, the records accepted. */
function udpAck(packetId: number, avlPacketId: number, count: number): Buffer {
  const ack = Buffer.alloc(7);
  ack.writeUInt16BE(5, 0);
  ack.writeUInt16BE(packetId, 2);
  ack[4] = 0x01;
  ack[5] = avlPacketId;
  ack[6] = count;
  return ack;
}

function decodeUdp(frame: Buffer, now: number): FrameResult {
  const reader = new ByteReader(frame);
  if (reader.u16() !== frame.length - 2) throw new FrameError('Teltonika datagram length does not match its length field');
  const packetId = reader.u16();
  reader.u8(); // unused (01)
  const avlPacketId = reader.u8();
  const uniqueId = readImei(reader);
  const data = readAvlData(reader, now);
  return { uniqueId, fixes: data.fixes, ...(data.acknowledged ? { ack: udpAck(packetId, avlPacketId, data.count) } : {}) };
}

export function decode(frame: Buffer, session: ProtocolSession, now: number): FrameResult {
  if (session.transport === 'udp') return decodeUdp(frame, now);
  if (frame.length === 1 && frame[0] === PING_BYTE) return {};
  if (frame.length < 2) throw new FrameError('Teltonika frame too short');
  return frame.readUInt16BE(0) !== 0 ? decodeHandshake(frame) : decodeTcpPacket(frame, session, now);
}
