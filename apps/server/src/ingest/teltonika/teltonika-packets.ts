// Teltonika test material shared by the unit tests, the fuzz test, the TCP/UDP integration
// suite and the device simulator: the reference's vectors (traccar-reference.md A.10),
// Teltonika's documented examples, and builders that assemble valid packets (lengths, counts
// and CRC computed) from readable record descriptions.
import { CODEC_16, CODEC_8E } from './constants.ts';
import { crc16Ibm } from './crc16-ibm.ts';

/** traccar-reference.md A.10, Teltonika table (numbered as there; TCP). */
export const REFERENCE_VECTORS = {
  1: '000F313233343536373839303132333435',
  2: '000000000000002b080100000140d4e3ec6e000cc661d01674a5e0fffc00000900000004020100f0000242322318000000000100007a04',
  3: '0000000000000035080100000161f37c50500020de5ba60ef11450000000000000000006040100b300b400ef000109002000014e0000000000000000010000be52',
  6: '000000000000004b8e010000018368952793000f0e54fc209ab05800b300b40e00002a4f0001000000000000000000012a4f001e011c0001a40110eb47706aa38255aa96f21a154e2d00550d01000e020bd6010000823f',
  7: '00000000000000240d01060000001c642b3ad14754534c7c367c317c307c31323734393838347c317c0d0a010000ec11',
  8: '00000000000000100C010600000008010300010015D5C5010000D988',
  9: '000000000000004f0c01060000004755555555777730362e343b30342e323b30302e303b30302e303b30302e303b30302e303b30302e303b30302e303b30312e333b30302e303b31302e373b30302e303b5353530d0a010000e371',
  10: '000000000000009D10020000013feb55ff74000f0ea850209a690000AE00B90B00000000070A050001000002000003000004000120000200180000004601290200C700000000004C0000000001003E00000000000000000000015B198C7498000F0DBC502095872F00AE00B90B00000000070A050001000002000003000004000120000200180000004601290200C700000000004C0000000001003E000000000000000002000009A5',
  11: 'ff',
} as const;

/** Teltonika's documented UDP example (IMEI 352093086403655, packet id CAFE, AVL packet id 05), answered 0005CAFE010501. */
export const DOCUMENTED_UDP_DATAGRAM =
  '003DCAFE0105000F33353230393330383634303336353508010000016B4F815B30010000000000000000000000000000000103021503010101425DBC000001';

export const hexBytes = (hex: string): Buffer => Buffer.from(hex, 'hex');

export type IoSize = 1 | 2 | 4 | 8;

export interface RecordSpec {
  /** Epoch ms. */
  time: number;
  priority?: number;
  latitude: number;
  longitude: number;
  altitude?: number;
  course?: number;
  satellites?: number;
  speedKmh?: number;
  event?: number;
  /** Codec 16 only. */
  generation?: number;
  /** Fixed-size IO elements: [id, size, value]. */
  io?: ReadonlyArray<readonly [number, IoSize, number | bigint]>;
  /** Codec 8E variable-length IO elements: [id, bytes]. */
  variableIo?: ReadonlyArray<readonly [number, Buffer]>;
}

/** `value` in `size` big-endian bytes, two's complement for negative numbers. */
function uint(value: number | bigint, size: number): Buffer {
  let v = BigInt.asUintN(size * 8, BigInt(value));
  const b = Buffer.alloc(size);
  for (let i = size - 1; i >= 0; i--, v >>= 8n) b[i] = Number(v & 0xffn);
  return b;
}

/** One AVL record of codec 8, 8E or 16. */
export function avlRecord(codec: number, spec: RecordSpec): Buffer {
  const extended = codec === CODEC_8E;
  const wideIds = extended || codec === CODEC_16;
  const countSize = extended ? 2 : 1;
  const idSize = wideIds ? 2 : 1;
  const head = Buffer.alloc(24);
  head.writeBigInt64BE(BigInt(spec.time), 0);
  head[8] = spec.priority ?? 0;
  head.writeInt32BE(Math.round(spec.longitude * 1e7), 9);
  head.writeInt32BE(Math.round(spec.latitude * 1e7), 13);
  head.writeInt16BE(spec.altitude ?? 0, 17);
  head.writeUInt16BE(spec.course ?? 0, 19);
  head[21] = spec.satellites ?? 8;
  head.writeUInt16BE(spec.speedKmh ?? 0, 22);
  const io = spec.io ?? [];
  const variable = spec.variableIo ?? [];
  const parts: Buffer[] = [head, uint(spec.event ?? 0, idSize)];
  if (codec === CODEC_16) parts.push(uint(spec.generation ?? 5, 1));
  parts.push(uint(io.length + variable.length, countSize));
  for (const size of [1, 2, 4, 8] as const) {
    const group = io.filter(([, s]) => s === size);
    parts.push(uint(group.length, countSize));
    for (const [id, , value] of group) {
      parts.push(uint(id, idSize), uint(value, size));
    }
  }
  if (extended) {
    parts.push(uint(variable.length, 2));
    for (const [id, bytes] of variable) parts.push(uint(id, 2), uint(bytes.length, 2), bytes);
  }
  return Buffer.concat(parts);
}

/** A data field: codec id, count, records, count again (`count` may lie, for tests). */
export function avlData(codec: number, records: readonly Buffer[], count = records.length): Buffer {
  return Buffer.concat([Buffer.from([codec, count]), ...records, Buffer.from([count])]);
}

/** A TCP packet: preamble, data length, data, CRC-16/IBM. */
export function tcpPacket(data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 4);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc16Ibm(data));
  return Buffer.concat([head, data, crc]);
}

/** A UDP datagram: length, packet id, 01, AVL packet id, IMEI, data. */
export function udpDatagram(packetId: number, avlPacketId: number, imei: string, data: Buffer): Buffer {
  const body = Buffer.concat([uint(packetId, 2), Buffer.from([0x01, avlPacketId]), uint(imei.length, 2), Buffer.from(imei, 'latin1'), data]);
  return Buffer.concat([uint(body.length, 2), body]);
}

/** The TCP IMEI handshake. */
export function imeiHandshake(imei: string): Buffer {
  return Buffer.concat([uint(imei.length, 2), Buffer.from(imei, 'latin1')]);
}
