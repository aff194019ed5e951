// CRC-16/IBM (also known as CRC-16/ARC): polynomial 0x8005 processed LSB-first (0xA001),
// initial value 0, no final xor. Teltonika computes it over an AVL packet's data field (codec
// id … second record count) and sends it in the last two of four trailing bytes; the command
// packets we send (codec 12) carry one the same way.

const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** CRC-16/IBM of `buffer[start..end)`. */
export function crc16Ibm(buffer: Buffer, start = 0, end = buffer.length): number {
  let crc = 0;
  for (let i = start; i < end; i++) crc = (crc >>> 8) ^ TABLE[(crc ^ buffer[i]!) & 0xff]!;
  return crc;
}
