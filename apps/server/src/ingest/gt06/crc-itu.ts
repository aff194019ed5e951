// CRC-ITU as GT06 units compute it (CRC-16/X-25: polynomial 0x1021 processed LSB-first, i.e.
// 0x8408, initial value 0xFFFF, final xor 0xFFFF), over a frame's length byte(s) up to and
// including the serial number.

const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x8408 : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** CRC-ITU of `bytes[start..end)`. */
export function crcItu(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffff;
  for (let i = start; i < end; i++) crc = (crc >>> 8) ^ TABLE[(crc ^ bytes[i]!) & 0xff]!;
  return (crc ^ 0xffff) & 0xffff;
}
